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
    {
      name: 'timestamps close to real time, received after the sandbox clock was moved a day ahead',
      events: () => {
        const p = new PageBuilder();
        return [
          p.render('r1', { at: 0, recv: 86_400_000, clockOffsetMs: 86_400_000 }),
          p.impression('r1', ['a'], { at: 1200, recv: 86_401_240, clockOffsetMs: 86_400_000 }),
        ];
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
      name: 'a timestamp an hour off both the moved sandbox clock and real time',
      events: () => {
        const p = new PageBuilder();
        // the sandbox clock moved 2 h ahead: received at +2 h by it, at 0 by real time; stamped at +1 h
        return [
          p.render('r1', { at: 3_600_000, recv: 7_200_000, clockOffsetMs: 7_200_000 }),
          p.impression('r1', ['a'], { at: 3_601_200, recv: 7_201_200, clockOffsetMs: 7_200_000 }),
        ];
      },
      findings: [
        {
          messageId: 'farClockMoved',
          message:
            "by the sandbox's moved clock and by real time alike (up to 60 min from the nearer",
          fix: 'moving the sandbox',
          events: [0, 1],
        },
      ],
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
