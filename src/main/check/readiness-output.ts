// `check FILE... --readiness`: the readiness of each site in a recording (the same tally as the live
// sandbox's, over the pages as `check` judges them), as text or JSON, and the gate on what is expected.
import type { PageTimelineDto } from '../../shared/timeline';
import {
  readinessGaps,
  wasSeen,
  type ReadinessDto,
  type ReadinessFailOn,
} from '../../shared/readiness';
import {
  ReadinessTally,
  sightPageDto,
  type ReadinessSite,
  type Served,
} from '../tracking/timeline/readiness';

/** A site's readiness in a recording; `sent: false` when it sent nothing (a site the config expects of). */
export type OfflineSiteReadiness = ReadinessDto & { gaps: string[]; sent?: false };

/** The readiness of every site the pages are of, with what keeps each from what it expects. */
export class OfflineReadiness {
  private readonly tallies = new Map<string, ReadinessTally>();

  constructor(
    /** a site's declared widgets and expect (from --config), or none */
    private readonly siteOf: (siteId: string) => ReadinessSite,
    /** --expect: wins over the config's */
    private readonly expect: readonly string[],
    private readonly failOn: ReadinessFailOn,
    /**
     * sites the config expects something of (accounts[].readiness.expect): reported even when the recording
     * holds nothing of them, every expected behaviour unseen, so a site that never sent fails the gate
     */
    private readonly expected: readonly string[] = [],
  ) {}

  /** A page as `check` judged it; `served`: what the recording says the page's site's responses served. */
  page(page: PageTimelineDto, served?: Served): void {
    let tally = this.tallies.get(page.siteId);
    if (!tally) this.tallies.set(page.siteId, (tally = new ReadinessTally()));
    sightPageDto(tally, page, served);
  }

  /** Each site's readiness and its gaps; `credited` gives the pages of a site's credited orders. */
  result(credited: (siteId: string) => Iterable<string>): OfflineSiteReadiness[] {
    const siteIds = new Set([...this.tallies.keys(), ...this.expected]);
    return [...siteIds].sort().map((siteId) => {
      const tally = this.tallies.get(siteId) ?? new ReadinessTally();
      const sent = this.tallies.has(siteId);
      for (const pageLoadId of credited(siteId)) tally.credited(pageLoadId);
      const site = this.siteOf(siteId);
      const dto = tally.result(site);
      const expect = this.expect.length > 0 ? this.expect : site.expect;
      return {
        ...dto,
        expect: [...expect],
        ...(!sent && { sent: false as const }),
        gaps: readinessGaps(dto, expect, this.failOn),
      };
    });
  }
}

const WIDTH = 34;

/** The text report: per site, its rows by area, then what is missing of what it expects. */
export function readinessText(sites: readonly OfflineSiteReadiness[]): string {
  const out: string[] = [];
  for (const s of sites) {
    const { ok, findings, unseen, notApplicable } = s.summary;
    out.push(
      `readiness of ${s.siteId}: ${ok} ok, ${findings} with findings, ${unseen} unseen, ${notApplicable} not applicable${s.sent === false ? ' (it sent nothing in this recording: the config expects it to)' : ''}`,
    );
    let area = '';
    for (const r of s.behaviours) {
      if (r.area !== area) out.push(`  ${(area = r.area)}`);
      const name = r.tag !== undefined ? `${r.id} [${r.tag}]` : r.id;
      const detail =
        r.status === 'ok'
          ? `seen on page ${r.example!.pageLoadId}`
          : r.status === 'findings'
            ? `${r.worst!.severity} ${r.worst!.rule} on page ${r.worst!.pageLoadId}`
            : r.status === 'unseen'
              ? `send it with ${r.next}`
              : (r.why ?? '');
      out.push(`    ${r.status.padEnd(15)} ${name.padEnd(WIDTH)} ${detail}`);
    }
    if (s.gaps.length > 0)
      out.push(
        `  not ready (${s.gaps.length} of what it expects):`,
        ...s.gaps.map((g) => `    - ${g}`),
      );
    else if (s.expect.length > 0)
      out.push(`  ready for what it expects: ${s.expect.map((e) => seenOf(s, e)).join(', ')}`);
    else
      out.push(
        '  nothing expected (--expect ID|AREA, or accounts[].readiness.expect with --config)',
      );
    out.push('');
  }
  return `${out.join('\n')}\n`;
}

/**
 * An expected entry as the ready line names it: an area with how many of its behaviours the traffic showed
 * (an area passes once one of them is seen, so "ready" alone would hide the rest still unseen).
 */
function seenOf(s: OfflineSiteReadiness, entry: string): string {
  const rows = s.behaviours.filter((r) => r.area === entry);
  if (rows.length === 0) return entry;
  const seen = rows.filter(wasSeen).length;
  const unseen = rows.filter((r) => r.status === 'unseen').length;
  return unseen === 0
    ? `${entry} (${seen} of ${rows.length} behaviours seen)`
    : `${entry} (${seen} of ${rows.length} behaviours seen, ${unseen} unseen: see above)`;
}
