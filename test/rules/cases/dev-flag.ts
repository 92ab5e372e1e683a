import { PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'development traffic (dev: true)',
      events: () => [new PageBuilder().render('r1', { at: 0 })],
    },
  ],
  invalid: [
    {
      name: 'production-mode traffic',
      events: () => {
        const p = new PageBuilder({ dev: false });
        return [p.render('r1', { at: 0 }), p.impression('r1', ['a'], { at: 1200 })];
      },
      findings: [
        { message: '2 of the 2 accepted events', fix: "mode: 'development'", events: [0, 1] },
      ],
    },
  ],
} satisfies RuleCases;
