// A page's controllers (a listing or dropdown: a kind and widget tag) and the renders each made, by time,
// and whether two of a listing's responses are of other requests (a new search) or one continues the other
// (infinite scroll): read by `response-replaced` (events of a response no longer shown) and by the rules
// that ask for a response's impressions (a response replaced before its tiles could be impressed).
import { byTimestamp } from './time-order';
import type { TimelineEvent } from '../../model';
import type { Response } from '../../response';
import type { Page } from '../../page';
import { issuedFor } from './provenance';
import type { RuleContext } from '../types';

/** URL parameters that page a list or track a visit without changing its request */
const NOT_THE_REQUEST =
  /^(page|p|pg|utm_.*|gclid|fbclid|msclkid|athos_attribution|ss_attribution)$/i;

/** The request a page URL shows: its path, query parameters (paging and tracking aside) and hash. */
function requestOf(pageUrl: string): string | undefined {
  let u: URL;
  try {
    u = new URL(pageUrl);
  } catch {
    return undefined;
  }
  const params = [...u.searchParams.entries()]
    .filter(([k]) => !NOT_THE_REQUEST.test(k))
    .map(([k, v]) => `${k}=${v}`)
    .sort();
  return `${u.pathname}?${params.join('&')}${u.hash}`;
}

/**
 * Are the two responses' searches other requests (not one continuing the other)? When the sandbox issued
 * both, by their query and page; else by the page URLs of their first renders (another path, query, filter
 * or sort; page numbers and tracking parameters aside). Unknown is not other.
 */
export function otherRequests(a: Response, b: Response, ctx: RuleContext): boolean {
  if (a.kind === 'autocomplete') return true;
  const ia = issuedFor(a, ctx);
  const ib = issuedFor(b, ctx);
  // the same query continues only onto a later page (infinite scroll); page 1 again is a new sort or filter
  if (ia && ib)
    return ia.query.trim().toLowerCase() !== ib.query.trim().toLowerCase() || ib.page <= ia.page;
  const ra = a.facts.renders[0];
  const rb = b.facts.renders[0];
  if (!ra || !rb) return false;
  const qa = requestOf(ra.pageUrl);
  const qb = requestOf(rb.pageUrl);
  return qa !== undefined && qb !== undefined && qa !== qb;
}

export type ControllerRender = { e: TimelineEvent; of: Response };

/** The key of a response's controller in `controllerRenders`: its kind and widget tag. */
export const controllerOf = (r: Response): string => `${r.kind}\u0000${r.tag}`;

/**
 * Every accepted render (with a timestamp) of each controller of the page, by timestamp and then arrival:
 * read once per run of the page's rules (through `pageShared`), not once per response judged.
 */
export function controllerRenders(page: Page): Map<string, ControllerRender[]> {
  const byController = new Map<string, ControllerRender[]>();
  for (const o of page.responses.values()) {
    if (o.facts.renders.length === 0) continue;
    const key = controllerOf(o);
    let renders = byController.get(key);
    if (!renders) byController.set(key, (renders = []));
    for (const e of o.facts.renders) if (e.tsMs !== null) renders.push({ e, of: o });
  }
  for (const renders of byController.values())
    // in order already when the controller's responses came one after another
    if (renders.some((x, i) => i > 0 && byTimestamp(renders[i - 1]!.e, x.e) > 0))
      renders.sort((x, y) => byTimestamp(x.e, y.e));
  return byController;
}
