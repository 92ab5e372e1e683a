// `upstream-disagrees`: a forwarded event that one side accepted and the other rejected — the sandbox's own
// fidelity gap. Only verdicts are compared: 2xx against 4xx. Exempt, because they say nothing about the
// event: 408 and 429 (timeout, rate limit), 5xx, no answer, not sent. Both answers go in the message.
import type { RecordedEvent } from '../../../../shared/events';
import { addCapped, capped } from '../model';
import type { Page } from '../page';
import { finding, list, plural, defineRule, type RuleMeta, EVERY_PAGE_KIND } from './types';

/** How much of a body a message quotes (enough for a bug report, not a wall of text). */
const QUOTE_CHARS = 1500;

/** Count the event's upstream answer into its page; true when the page's findings changed. */
export function tallyUpstream(page: Page, rec: RecordedEvent): boolean {
  const up = rec.upstream;
  if (!up || (up.outcome !== 'accepted' && up.outcome !== 'rejected')) return false;
  const tally = (page.tallies.upstream ??= { seen: new Set(), groups: new Map() });
  if (tally.seen.has(rec.id)) return false;
  tally.seen.add(rec.id);
  if ((up.outcome === 'accepted') === rec.accepted) return false;
  const endpoint = `${rec.category}/${rec.event}`;
  const messages = rec.errors.map((e) => e.message);
  const key = [endpoint, rec.status, up.status, messages.join('\u0000'), quote(up.body)].join(
    '\u0001',
  );
  let group = tally.groups.get(key);
  if (!group)
    tally.groups.set(
      key,
      (group = {
        endpoint,
        ours: { status: rec.status, messages },
        theirs: { status: up.status!, body: up.body, url: up.url },
        body: rec.body,
        ids: capped(),
      }),
    );
  addCapped(group.ids, rec.id);
  return true;
}

function quote(v: unknown): string {
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text;
}

const meta: RuleMeta<'page'> = {
  id: 'upstream-disagrees',
  judges: ['page'],
  title: 'The real service disagrees',
  description:
    'With tracking.forward on, a forwarded event that one side accepted and the other rejected (the real service’s 2xx against the sandbox’s 4xx, or the other way round). 408, 429, 5xx and unanswered requests are not verdicts and never compared.',
  expects: 'The sandbox judges every event exactly as the real service does.',
  appliesTo: EVERY_PAGE_KIND,
  guards: ['identity.context'],
  defaultSeverity: 'error',
  messages: {
    disagrees:
      "{{count}} ({{events}}): the sandbox {{ours}} and the real service {{theirs}}. Sandbox answered: {{ourAnswer}}. Real service ({{url}}) answered: {{theirAnswer}}. Request body: {{body}}. This is a gap in the sandbox's fidelity, not necessarily in your storefront: report it to the sandbox's maintainers with this message; until it is fixed, the real service's verdict is the one that counts.",
  },
  fix: 'A gap in the sandbox’s fidelity, not in your storefront: copy the finding (both answers and the request) into a bug report for the sandbox. Until it is fixed, trust the real service’s verdict.',
  listens: ['request', 'upstream-answer'],
  judgesOnlyWith: ['upstream'],
};

export const upstreamDisagrees = defineRule({
  tally: tallyUpstream,
  meta,
  count: (page) => page.tallies.upstream?.groups.size ?? 0,
  page(page) {
    const out = [];
    let n = 0;
    for (const g of page.tallies.upstream?.groups.values() ?? []) {
      n++;
      const ours =
        g.ours.status === 200
          ? `${g.ours.status} {"success":true}`
          : `${g.ours.status} with ${g.ours.messages.length ? g.ours.messages.map((m) => JSON.stringify(m)).join(', ') : 'no message'}`;
      const sandboxAccepts = g.ours.status === 200;
      const data = {
        count: plural(g.ids.count, `${g.endpoint} event`),
        events: list(g.ids.ids, 3),
        ours: sandboxAccepts ? 'accepted' : 'rejected',
        theirs: sandboxAccepts ? 'rejected' : 'accepted',
        ourAnswer: ours,
        url: g.theirs.url ?? '',
        theirAnswer: `${g.theirs.status} ${quote(g.theirs.body)}`,
        body: quote(g.body),
      };
      out.push(
        finding(meta, `${g.endpoint}:${n}`, { messageId: 'disagrees', data }, g.ids.ids, {
          eventCount: g.ids.count,
        }),
      );
    }
    return out;
  },
});
