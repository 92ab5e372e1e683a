import { PageBuilder, type RuleCases } from '../kit';

export default {
  valid: [
    {
      name: 'timestamps close to their receive times',
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0 }), p.impression('r1', ['a'], { at: 1200 })];
      },
    },
  ],
  invalid: [
    {
      name: 'a timestamp an hour off its receive time',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0, recv: 3_600_000 }),
          p.impression('r1', ['a'], { at: 3_601_200 }),
        ];
      },
      findings: [{ messageId: 'far', fix: 'new Date().toISOString()', events: [0] }],
    },
    {
      name: 'a timestamp that is not RFC 3339',
      events: () => {
        const p = new PageBuilder();
        return [p.render('r1', { at: 0, context: { timestamp: '27/11/2026 10:00' } })];
      },
      findings: [{ messageId: 'format', message: 'not an RFC 3339', events: [0] }],
    },
  ],
} satisfies RuleCases;
