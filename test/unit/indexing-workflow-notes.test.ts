// The scorecard's findings in words: each message is whole, as the feed's history and the Feeds board show it.
import { describe, expect, it } from 'vitest';
import { scoreRequest, type RequestOutcome } from '../../src/main/indexing/workflow';

const OUTCOMES: RequestOutcome[] = [
  'accepted',
  'paused',
  'refused-waiting',
  'refused-hour',
  'refused-never',
  'refused-no-file',
];

describe('workflow findings', () => {
  it("says whole why the sandbox UI's own request is not scored", () => {
    const card = scoreRequest({
      feedId: 42,
      now: 0,
      statusRead: undefined,
      outcome: 'accepted',
      plainHttp: true,
      fromSandboxUi: true,
    });
    // it was cut after "an integration's request is", reading as an explanation of nothing
    expect(card.findings).toEqual([
      {
        flag: 'sandbox-ui',
        message:
          "sent from the sandbox's own Feeds view (X-Sandbox-No-Challenge from a page of the sandbox's own origin, Sec-Fetch-Site: same-origin), which shows the feed's state itself: not scored for a status read or its transport, as an integration's request is; what the request did (a 409, a pause) is still flagged",
      },
    ]);
  });

  it('ends no finding on a word that leaves it unfinished', () => {
    for (const outcome of OUTCOMES)
      for (const fromSandboxUi of [true, false])
        for (const plainHttp of [true, false]) {
          const card = scoreRequest({
            feedId: 42,
            now: 0,
            statusRead: undefined,
            outcome,
            plainHttp,
            fromSandboxUi,
          });
          for (const { message } of card.findings)
            expect(message).not.toMatch(/\b(is|are|a|an|the|or|and|of|to|for|as)$|[,;:]$/);
        }
  });
});
