// The beacon client's queue, as the rules that ask whether a render could still have been waiting in it read
// it: `search-not-rendered` (a queued request that arrived long after a response was answered was flushed
// after its render was queued) and `missing-render` (a click that left the page before the queue flushed).
import type { TimelineEvent } from '../../model';
import type { Response } from '../../response';
import { duration, type RuleContext } from '../types';
import { issuedFor } from './provenance';

/**
 * From a response's answer to the latest a queued request of its page can have been flushed without its
 * render: the client's 300 ms debounce, and 1.7 s for the response to reach the page and be stored (its
 * render is queued right after the store update).
 */
export const FLUSHED_MS = 2_000;

/** the kinds whose controller redirects a single result to its product (the search controller's) */
const SINGLE_RESULT_REDIRECTS = new Set(['search', 'category']);

/** How a render may have been lost with the page in the client's queue, as far as the sandbox can tell. */
export type LeftInQueue =
  /** the click arrived within FLUSHED_MS of the sandbox issuing the response: `after` */
  | { timed: true; after: string }
  /** the sandbox did not issue the response (or the click has no arrival time): nothing to time it by */
  | { timed: false }
  /**
   * timed, but the sandbox issued the search as its only result: the client navigates to that product by
   * itself, so the click is no shopper's (an error, which says so)
   */
  | { timed: true; singleResult: true };

/**
 * Whether a response's events with no render are what the provider's client sends when the shopper clicks
 * a result before its render left the queue, and leaves the page.
 *
 * The client (B `queueRequest`, REQUEST_GROUPING_TIMEOUT: what the provider's client sends, "Impressions")
 * queues render, impression and addtocart behind a 300 ms debounce that every queued event restarts, for
 * every kind (the search and category controller's render, the autocomplete dropdown's, each widget's), and
 * sends a clickthrough at once with keepalive; it has no unload flush ("Clickthrough and addtocart"). So a
 * shopper who clicks a result within the debounce of the results appearing, and whose click navigates away,
 * leaves with the render still queued: the service gets the click alone. That traffic is exactly:
 *
 * - the response's only events are clickthroughs: a queued impression or addtocart of it that arrived was
 *   flushed with the render (one flush sends the whole queue), so its render would have arrived too;
 * - each click is the page's last event (no later-timestamped event of the page): a page that went on was
 *   not left, and its queue flushed;
 * - when the sandbox issued the response, each click arrived within FLUSHED_MS of its answer: a render
 *   queued on arrival was flushed by then, so a later click leaves no render behind.
 *
 * Not a shopper's click (`singleResult`): a search or category response the sandbox issued with a single
 * result. The controller's single-result redirect (SC afterStore: what the provider's client sends, "Redirect")
 * queues the render and navigates to that product at once, so no shopper clicks the tile before the page
 * leaves: a click sent for it is the storefront tracking the redirect as a click. (A storefront that turned
 * the single-result redirect off, whose shopper clicked the only result within 2 s of the answer and left, is
 * told the same: the trade-off of catching the storefront that tracks its redirect as a click.)
 *
 * Undefined: not that traffic (an impression or addtocart of the response arrived, the page went on after a
 * click, or a click came later than a render stays queued). `{ timed: false }`: that traffic, but the
 * sandbox did not issue the response, so nothing says how soon the click came.
 */
export function renderLeftInQueue(
  r: Response,
  ctx: RuleContext,
  orphans: readonly TimelineEvent[],
): LeftInQueue | undefined {
  const f = r.facts;
  if (f.impressions.length + f.carts.length > 0) return undefined;
  if (orphans.length === 0 || orphans.some((e) => e.event !== 'clickthrough')) return undefined;
  if (orphans.some((e) => e.time < ctx.page.maxTime)) return undefined;
  const issued = issuedFor(r, ctx);
  const received = orphans.map((e) => e.receivedMs);
  if (!issued || received.some((ms) => ms === null)) return { timed: false };
  const latest = Math.max(...(received as number[])) - issued.issuedAt;
  if (latest > FLUSHED_MS) return undefined;
  if (SINGLE_RESULT_REDIRECTS.has(r.kind) && issued.page === 1 && issued.perPage > 1)
    if (issued.results.length === 1) return { timed: true, singleResult: true };
  return { timed: true, after: duration(Math.max(0, latest)) };
}
