import { PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'a POST the service reads',
      events: () => [new PageBuilder().render('r1', { at: 0 })],
    },
  ],
  invalid: [
    {
      name: 'a browser’s CORS preflight refused (405)',
      events: () => {
        const p = new PageBuilder();
        return [
          {
            ...p.render('r1', { at: 0, accepted: false }),
            status: 405,
            body: null,
            errors: [{ message: 'invalid request method: `OPTIONS` - requires `POST`', path: '' }],
          },
        ];
      },
      findings: [{ message: 'browser’s CORS preflight', fix: 'text/plain', events: [0] }],
    },
  ],
} satisfies RuleCases;
