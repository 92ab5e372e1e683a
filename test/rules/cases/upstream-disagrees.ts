import type { RecordedEvent } from '../../../src/shared/events';
import { PageBuilder, type RuleCases } from '../kit';

const answer = (status: number | null, outcome: 'accepted' | 'rejected' | 'unavailable') => ({
  url: 'https://beacon.example.com/beacon/v2/demo42/search/render',
  outcome,
  status,
  body: status === 400 ? { error: 'ValidationError', message: 'bad' } : null,
  at: '2026-11-21T04:00:01.000Z',
  ms: 20,
});
const forwarded = (e: RecordedEvent, up: ReturnType<typeof answer>): RecordedEvent => ({
  ...e,
  upstream: up,
});

export default {
  valid: [
    {
      name: 'both sides accept',
      events: () => [forwarded(new PageBuilder().render('r1', { at: 0 }), answer(200, 'accepted'))],
    },
    {
      name: 'the real service timed out (no verdict)',
      events: () => [
        forwarded(new PageBuilder().render('r1', { at: 0 }), answer(null, 'unavailable')),
      ],
    },
  ],
  invalid: [
    {
      name: 'the sandbox accepts what the real service rejects',
      events: () => [forwarded(new PageBuilder().render('r1', { at: 0 }), answer(400, 'rejected'))],
      findings: [{ message: '400', events: [0] }],
    },
  ],
} satisfies RuleCases;
