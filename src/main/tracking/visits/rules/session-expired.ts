// `session-expired` (warning): an event of a visit after more than 30 minutes without one, still carrying
// the visit's sessionId: the provider's client would have started a new session.
//
// Why it is certain: the client reads the sessionId once per page load (B getContext: `this.sessionId ||
// this.getSessionId()`) and rolls its 30 minutes then (getStoredId rewrites the cookie and the stored
// timestamp), so a page load that begins more than 30 minutes after every event of the visit before it
// (and so after every page load's read) gets a new one. What it exempts: a minute for clocks
// (SESSION_IDLE_MS), queued events arriving late (a gap counts only when an event is timestamped that long
// after every event of the visit before it), and an event of a page load that had events before the
// silence (an SPA left open: it keeps the sessionId it read).
import { finding } from '../../finding';
import type { RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';

const meta: RuleMeta<'visit'> = {
  id: 'session-expired',
  judges: ['visit'],
  title: 'Session kept past its 30 minutes',
  description:
    'The first event of a page load carrying a sessionId whose visit had no event for more than 30 minutes before it: the provider’s client reads the sessionId at each page load and starts a new session after 30 minutes of inactivity. A page left open through the silence keeps the sessionId it read.',
  expects:
    'A sessionId lives through 30 minutes of inactivity (rolling); the first event after a longer silence carries a new one.',
  appliesTo: ['visit'],
  guards: ['identity.session'],
  defaultSeverity: 'warning',
  messages: {
    expired:
      "{{eventId}} carries sessionId \"{{sessionId}}\" after the visit had no event for {{gap}} (its last before was at {{lastAt}}). The provider's client keeps a sessionId for 30 minutes of inactivity and starts a new session after that, so the visit's sessions, and what reports count per session, no longer match the shopper's.",
  },
  fixes: {
    expired:
      "let the provider's beacon client keep the sessionId (it renews it after 30 minutes without an event); never store it longer or set it yourself.",
  },
  fix: 'Let the provider’s beacon client keep the sessionId (it renews it after 30 minutes of inactivity); never store it longer or set it yourself.',
  listens: ['request'],
  needs: { visit: true },
};

const minutes = (ms: number) => `${Math.round(ms / 60_000)} minutes`;

export const sessionExpired = defineRule({
  meta,
  visit(page, { visit }) {
    const gaps = visit?.gaps?.filter((g) => g.pageKey === page.key) ?? [];
    return gaps.map((g) =>
      finding(
        meta,
        g.eventId,
        {
          messageId: 'expired',
          data: {
            eventId: g.eventId,
            sessionId: page.sessionId,
            gap: minutes(g.gapMs),
            lastAt: new Date(g.afterMs).toISOString(),
          },
        },
        [g.eventId],
      ),
    );
  },
});
