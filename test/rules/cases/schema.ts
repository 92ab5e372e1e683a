import { PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'every body valid',
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', ['a'], { at: 1200 })];
      },
    },
  ],
  invalid: [
    {
      name: 'an impression the service rejected (400)',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0 }),
          p.impression('r1', ['a'], {
            at: 1200,
            accepted: false,
            errors: ['data.results must be an array'],
          }),
        ];
      },
      findings: [
        { message: 'data.results must be an array', fix: 'fields named above', events: [1] },
      ],
    },
  ],
} satisfies RuleCases;
