// `check FILE... --readiness`: the readiness of each site in a recording (the same tally as the live
// sandbox's, over the pages as `check` judges them), as text or JSON, and the gate on what is expected.
import type { PageTimelineDto } from '../../shared/timeline';
import {
  LACK_HOW,
  LACK_WHAT,
  readinessGaps,
  unverifiedLine,
  wasSeen,
  worstLine,
  wrongTagsLine,
  type ReadinessDto,
  type ReadinessFailOn,
  type ReadinessLack,
  type ReadinessRowDto,
} from '../../shared/readiness';
import {
  ReadinessTally,
  sightPageDto,
  type Asked,
  type CreditedOrder,
  type ReadinessInputs,
  type ReadinessSite,
  type Served,
} from '../tracking/timeline/readiness';
import type { RecordedSite } from '../tracking/timeline/offline-provenance';
import { NO_SITE } from './report-writer';
import type { FailOn } from '../tracking/timeline/report';

/** A site's readiness in a recording; `sent: false` when it sent nothing (a site the config expects of). */
export type OfflineSiteReadiness = ReadinessDto & { gaps: string[]; sent?: false };

/** The readiness of every site the pages are of, with what keeps each from what it expects. */
export class OfflineReadiness {
  private readonly tallies = new Map<string, ReadinessTally>();
  /** sites held to what an export recorded they expect, though they sent nothing in it */
  private readonly heldByExport = new Set<string>();

  constructor(
    /**
     * a site's declared widgets and expect (from --config; else the widgets the recording's sandbox
     * declared, `recorded`), or none
     */
    private readonly siteOf: (siteId: string, recorded?: RecordedSite) => ReadinessSite,
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
  page(page: PageTimelineDto, served?: Served, asked?: Asked): void {
    let tally = this.tallies.get(page.siteId);
    if (!tally) this.tallies.set(page.siteId, (tally = new ReadinessTally()));
    sightPageDto(tally, page, served, asked);
  }

  /**
   * Each site's readiness and its gaps; `credited` gives a site's credited orders, `inputs`
   * what its rules had beyond its traffic, `recorded` the sites' settings as exports recorded them (the
   * last one given of a site wins). A site an export records an expectation of is held to it even when it
   * sent nothing in the recording, as one of the config's is (the export of one site records only that
   * site's settings).
   */
  result(
    credited: (siteId: string) => Iterable<CreditedOrder>,
    inputs: (siteId: string) => ReadinessInputs,
    recorded: readonly RecordedSite[] = [],
  ): OfflineSiteReadiness[] {
    const recordedOf = new Map(recorded.map((s) => [s.siteId, s]));
    const siteIds = new Set([...this.tallies.keys(), ...this.expected]);
    for (const [siteId, settings] of recordedOf)
      if (!siteIds.has(siteId) && this.siteOf(siteId, settings).expect.length > 0) {
        siteIds.add(siteId);
        this.heldByExport.add(siteId);
      }
    return [...siteIds].sort().map((siteId) => {
      const tally = this.tallies.get(siteId) ?? new ReadinessTally();
      const sent = this.tallies.has(siteId);
      for (const order of credited(siteId)) tally.creditedOrder(order);
      const site = this.siteOf(siteId, recordedOf.get(siteId));
      const dto = tally.result(site, inputs(siteId));
      const expect = this.expect.length > 0 ? this.expect : site.expect;
      return {
        ...dto,
        expect: [...expect],
        ...(!sent && { sent: false as const }),
        gaps: readinessGaps(dto, expect, this.failOn),
      };
    });
  }

  /** Where a site that sent nothing was expected of: the export's record, or the config. */
  expectedBy(siteId: string): 'export' | 'config' {
    return this.heldByExport.has(siteId) ? 'export' : 'config';
  }
}

/**
 * The pages `check --readiness` read, judged as the page report judges them: how many have a finding at or
 * above --fail-on (which the readiness exit code does not gate) and the command that gates them.
 */
export interface UngatedPages {
  checked: number;
  failing: number;
  failOn: FailOn;
  /** `search-sandbox check FILE…`: the same arguments without --readiness and --expect */
  gatedBy: string;
}

/** What the readiness report says of the pages it does not gate, on its last line. */
export function ungatedLine(p: UngatedPages): string {
  const { checked, failing, failOn, gatedBy } = p;
  if (failing === 0)
    return `pages: none of the ${checked} read has findings at or above ${failOn} (\`${gatedBy}\` gates them)`;
  return `pages: ${failing} of the ${checked} read ${failing === 1 ? 'has' : 'have'} findings at or above ${failOn}, which --readiness does not gate (its exit code is readiness's alone): \`${gatedBy}\` reports them and exits 1`;
}

const WIDTH = 34;

/**
 * The text report: per site, its rows by area, then what is missing of what it expects. `expectedBy` says
 * where a site that sent nothing was expected of.
 */
export function readinessText(
  sites: readonly OfflineSiteReadiness[],
  expectedBy: (siteId: string) => 'export' | 'config' = () => 'config',
): string {
  const out: string[] = [];
  for (const s of sites) {
    const { ok, findings, unseen, notApplicable, unverified = 0 } = s.summary;
    const silent =
      s.sent !== false
        ? ''
        : expectedBy(s.siteId) === 'export'
          ? ' (it sent nothing in this recording: the export says its sandbox expected it to)'
          : ' (it sent nothing in this recording: the config expects it to)';
    out.push(
      `readiness of ${s.siteId || NO_SITE}: ${ok} ok${unverified > 0 ? ` (${unverified} unverified: seen, but no rule could check them)` : ''}, ${findings} with findings, ${unseen} unseen, ${notApplicable} not applicable${silent}`,
    );
    let area = '';
    for (const r of s.behaviours) {
      if (r.area !== area) out.push(`  ${(area = r.area)}`);
      const name = r.tag !== undefined ? `${r.id} [${r.tag}]` : r.id;
      out.push(`    ${statusOf(r).padEnd(15)} ${name.padEnd(WIDTH)} ${detailOf(r)}`);
    }
    const lacked = lacksOf(s.behaviours);
    if (lacked.length > 0)
      out.push(
        '  to check what is unverified:',
        ...lacked.map((l) => `    - ${LACK_WHAT[l]}: ${LACK_HOW[l]}`),
      );
    if (s.gaps.length > 0)
      out.push(
        `  not ready (${s.gaps.length} ${s.gaps.length === 1 ? 'gap' : 'gaps'} in what it expects):`,
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

/** What the site's unverified rows lacked, each once, in the order the rows first name it. */
function lacksOf(rows: readonly ReadinessRowDto[]): ReadinessLack[] {
  return [...new Set(rows.flatMap((r) => r.unverified?.map((u) => u.lacks) ?? []))];
}

/** A row's status as the text says it: an `ok` no rule could check says so where the eye reads `ok`. */
const statusOf = (r: ReadinessRowDto) =>
  r.status === 'ok' && r.unverified ? 'ok (unverified)' : r.status;

/** What the traffic shows of a row: its page, its worst finding, what sends it, or why it does not apply. */
function detailOf(r: ReadinessRowDto): string {
  const wrong = r.wrongTags ? `; ${wrongTagsLine(r)}` : '';
  if (r.status === 'ok')
    return `seen on page ${r.example!.pageLoadId}${wrong}${r.unverified ? `; ${unverifiedLine(r, false)}` : ''}`;
  if (r.status === 'findings') return `${worstLine(r.worst!)}${wrong}`;
  return r.status === 'unseen' ? `send it with ${r.next}` : (r.why ?? '');
}

/**
 * An expected entry as the ready line names it: an area with how many of its behaviours the traffic showed
 * and how many of those no rule could check (an area passes once one of them is seen, so "ready" alone
 * would hide the rest still unseen or unverified).
 */
function seenOf(s: OfflineSiteReadiness, entry: string): string {
  const rows = s.behaviours.filter((r) => r.area === entry);
  if (rows.length === 0) return entry;
  const seen = rows.filter(wasSeen).length;
  const unseen = rows.filter((r) => r.status === 'unseen').length;
  const unverified = rows.filter((r) => r.unverified).length;
  const parts = [
    `${seen} of ${rows.length} behaviours seen`,
    ...(unverified > 0 ? [`${unverified} of them unverified`] : []),
    ...(unseen > 0 ? [`${unseen} unseen`] : []),
  ];
  return `${entry} (${parts.join(', ')}${unseen + unverified > 0 ? ': see above' : ''})`;
}
