// A visit as the admin API lists it (README, "The whole visit and its credit"): its pages in the order
// they began, each with the kind and verdict its timeline has now, built again only when one of them
// changed.
import type { VisitDto, VisitPageDto } from '../../../shared/visits';
import type { Verdict } from '../../../shared/timeline';
import type { PageInfo, RefusedPage, Visit } from './book';

const VERDICT_CODE: Record<Verdict, string> = { pass: 'p', warn: 'w', fail: 'f' };

/**
 * The visit's JSON, built again only when the visit, its pages' kinds and verdicts, or the refused pages
 * of its session changed.
 */
export function visitJson(
  v: Visit,
  page: (key: string) => PageInfo | undefined,
  refused: readonly RefusedPage[] = [],
): string {
  const infos: Array<PageInfo | undefined> = [];
  let stamp = `${v.changes}:`;
  for (const key of v.pages.keys()) {
    const info = page(key);
    infos.push(info);
    stamp += info ? `${info.kind[0]}${VERDICT_CODE[info.verdict]}` : '-';
  }
  for (const r of refused) stamp += `|${r.pageLoadId}`;
  if (v.cache?.stamp !== stamp)
    v.cache = { stamp, json: JSON.stringify(visitDto(v, infos, refused)) };
  return v.cache.json;
}

function visitDto(
  v: Visit,
  infos: ReadonlyArray<PageInfo | undefined>,
  refused: readonly RefusedPage[],
): VisitDto {
  const pages: Array<VisitPageDto & { first: number }> = [];
  for (const r of refused)
    pages.push({
      pageLoadId: r.pageLoadId,
      pageUrl: r.pageUrl,
      kind: r.kind,
      verdict: r.verdict,
      refused: true,
      first: r.first,
    });
  let i = 0;
  for (const p of v.pages.values()) {
    const info = infos[i++];
    if (info)
      pages.push({
        pageLoadId: p.pageLoadId,
        pageUrl: info.pageUrl,
        kind: info.kind,
        verdict: info.verdict,
        first: p.first,
      });
  }
  pages.sort((a, b) => a.first - b.first);
  const verdict: Verdict = pages.some((p) => p.verdict === 'fail')
    ? 'fail'
    : pages.some((p) => p.verdict === 'warn')
      ? 'warn'
      : 'pass';
  return {
    siteId: v.siteId,
    sessionId: v.sessionId,
    userIds: [...v.userIds],
    ...(v.shopperId && { shopperId: v.shopperId }),
    start: new Date(v.startMs).toISOString(),
    end: new Date(v.endMs).toISOString(),
    verdict,
    pages: pages.map(({ first: _first, ...p }) => p),
    cart: v.cart ?? [],
    orders: v.orders.map((o) => o.ev.orderId ?? ''),
  };
}
