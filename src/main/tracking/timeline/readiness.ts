// Integration readiness: what a site's traffic shows of each behaviour of the client model. A read over the
// timelines' own judgement, never a second set of rules: a behaviour is seen when an accepted event of one
// of its `seenBy` endpoints arrived (client-model.ts), and broken when a warning or error finding names it.
// The tally takes the site's pages one at a time, live (PageState) or offline (the DTOs `check` writes).
import type { PageTimelineDto, TimelineFindingDto } from '../../../shared/timeline';
import type { ReadinessDto, ReadinessRowDto } from '../../../shared/readiness';
import type { Severity } from '../../../shared/verdict';
import { endpointOf, isWidgetKind, KIND_EVENTS } from '../../../shared/kinds';
import { BEHAVIOURS, behaviour, type Behaviour } from '../client-model';
import { ruleMeta } from './rule-list';
import { eventBit } from './heard';
import type { PageState } from './model';

/** What a site declares that readiness reads: its widget tags and what it means to implement. */
export interface ReadinessSite {
  siteId: string;
  /** `accounts[].search.recommendations`: a `default` profile is a recommendations widget, `bundle` a bundle */
  widgets: readonly { tag: string; type: 'default' | 'bundle' }[];
  /** `accounts[].readiness.expect`: behaviour ids or areas */
  expect: readonly string[];
}

/** A sighting standing for "an order line was credited" (order.credit), beside the endpoints. */
const CREDITED = 'credit';

/**
 * Behaviours that the events of their `seenBy` endpoints do not show by themselves. `order.credit` is the
 * sandbox's attribution model, not a call: it is seen when an order line was credited to a click or add.
 * `identity.attribution` is kept by the beacon client from a landing URL, with nothing for a storefront to
 * add, and whether a session should carry it is not in the traffic.
 */
export const SEEN_OTHERWISE: Readonly<Record<string, { sighting: string } | { why: string }>> = {
  'order.credit': { sighting: CREDITED },
  'identity.attribution': {
    why: 'the beacon client keeps it by itself from an `athos_attribution` landing URL (e-mail recommendations): there is nothing for the storefront to add, and whether a session landed from such a link is not in its traffic',
  },
};

interface Sighting {
  pageLoadId: string;
  /** the order it was taken in: pages come oldest first, so a larger one is newer */
  at: number;
}

interface Worst {
  rule: string;
  severity: Severity;
  pageLoadId: string;
}

const WEIGHT: Record<Severity, number> = { error: 2, warning: 1, info: 0 };
const key = (a: string, tag: string) => `${a}\u0000${tag}`;

/** The behaviours a finding counts against: the one it names, and the others its rule guards in that area. */
const NAMED = new Map<string, readonly string[]>();
function behavioursOf(f: Pick<TimelineFindingDto, 'rule' | 'behaviour'>): readonly string[] {
  const k = `${f.rule}\u0000${f.behaviour ?? ''}`;
  let ids = NAMED.get(k);
  if (!ids) {
    const area = f.behaviour === undefined ? undefined : behaviour(f.behaviour)?.area;
    const set = new Set<string>(f.behaviour === undefined ? [] : [f.behaviour]);
    for (const id of ruleMeta(f.rule)?.guards ?? [])
      if (area === undefined || behaviour(id)?.area === area) set.add(id);
    NAMED.set(k, (ids = [...set]));
  }
  return ids;
}

export class ReadinessTally {
  /** endpoint (`search/render`, `*` for any accepted event, CREDITED) + tag → its newest page */
  private readonly seen = new Map<string, Sighting>();
  /** behaviour id + tag → its worst finding */
  private readonly worst = new Map<string, Worst>();
  private count = 0;

  /** An accepted event of `endpoint` (with its widget tag, '' for others) on the page. */
  sent(endpoint: string, tag: string, pageLoadId: string): void {
    this.seen.set(key(endpoint, tag), { pageLoadId, at: ++this.count });
  }

  /** An order line of the page was credited to an earlier click or add. */
  credited(pageLoadId: string): void {
    this.sent(CREDITED, '', pageLoadId);
  }

  /**
   * The page's findings as the timelines judged them: a warning or an error counts against the
   * behaviours it names; one that follows from another (`causedBy`) is the cause's, which is counted.
   */
  findings(list: Iterable<TimelineFindingDto>, pageLoadId: string): void {
    for (const f of list) {
      if (f.severity === 'info' || f.causedBy !== undefined) continue;
      for (const id of behavioursOf(f)) {
        // a widget's row is its tag's; a behaviour of another area has one row
        const k = key(id, isWidgetKind(behaviour(id)?.area ?? '') ? (f.tag ?? '') : '');
        const held = this.worst.get(k);
        // the most severe; of those, the newest page (pages come oldest first)
        if (!held || WEIGHT[f.severity] >= WEIGHT[held.severity])
          this.worst.set(k, { rule: f.rule, severity: f.severity, pageLoadId });
      }
    }
  }

  result(site: ReadinessSite): ReadinessDto {
    const behaviours: ReadinessRowDto[] = [];
    for (const b of BEHAVIOURS) {
      if (!isWidgetKind(b.area)) {
        behaviours.push(this.row(b, ''));
        continue;
      }
      const tags = this.tagsOf(b.area, site);
      if (tags.length > 0) for (const tag of tags) behaviours.push(this.row(b, tag));
      else
        behaviours.push({
          ...head(b),
          status: 'not-applicable',
          why: `site ${site.siteId} declares no ${b.area === 'bundles' ? 'bundle' : 'recommendations'} widget (accounts[].search.recommendations, type "${b.area === 'bundles' ? 'bundle' : 'default'}") and sent none`,
        });
    }
    const summary = { ok: 0, findings: 0, unseen: 0, notApplicable: 0 };
    for (const r of behaviours)
      if (r.status === 'not-applicable') summary.notApplicable++;
      else summary[r.status]++;
    return { siteId: site.siteId, expect: [...site.expect], behaviours, summary };
  }

  /** A widget area's tags: those the site declares for it, then any other its traffic or findings name. */
  private tagsOf(area: string, site: ReadinessSite): string[] {
    const type = area === 'bundles' ? 'bundle' : 'default';
    const tags = site.widgets.filter((w) => w.type === type).map((w) => w.tag);
    const more = new Set<string>();
    for (const k of [...this.seen.keys(), ...this.worst.keys()]) {
      const [what, tag] = k.split('\u0000') as [string, string];
      if (tag !== '' && (what.startsWith(`${area}/`) || behaviour(what)?.area === area))
        more.add(tag);
    }
    return [...new Set(tags), ...[...more].filter((t) => !tags.includes(t)).sort()];
  }

  private row(b: Behaviour, tag: string): ReadinessRowDto {
    const base = { ...head(b), ...(isWidgetKind(b.area) && { tag }) };
    const otherwise = SEEN_OTHERWISE[b.id];
    if (otherwise && 'why' in otherwise)
      return { ...base, status: 'not-applicable', why: otherwise.why };
    const worst = this.worst.get(key(b.id, tag));
    if (worst) return { ...base, status: 'findings', worst: { ...worst } };
    const endpoints = otherwise ? [otherwise.sighting] : b.seenBy;
    let example: Sighting | undefined;
    for (const e of endpoints) {
      const s = this.seen.get(key(e, tag));
      if (s && (!example || s.at > example.at)) example = s;
    }
    if (example) return { ...base, status: 'ok', example: { pageLoadId: example.pageLoadId } };
    return { ...base, status: 'unseen', next: tag ? `${b.next} (tag "${tag}")` : b.next };
  }
}

const head = (b: Behaviour) => ({ id: b.id, title: b.title, area: b.area });

/** A live page: what it sent (its responses' accepted event types, its visit events) and its findings. */
export function sightPage(
  tally: ReadinessTally,
  page: PageState,
  findings: () => Iterable<TimelineFindingDto>,
): void {
  const id = page.pageLoadId;
  if (page.accepted > 0) tally.sent('*', '', id);
  for (const r of page.responses.values()) {
    if (r.sent === 0) continue;
    for (const e of KIND_EVENTS[r.kind])
      if ((r.sent & eventBit(e)) !== 0) tally.sent(endpointOf(r.kind, e), r.tag, id);
  }
  for (const v of page.visitEvents) if (v.base.accepted) tally.sent(v.endpoint, '', id);
  if (page.errors + page.warnings > 0) tally.findings(findings(), id);
}

/** A page as `check` hands it over (judged as finished). */
export function sightPageDto(tally: ReadinessTally, page: PageTimelineDto): void {
  const id = page.pageLoadId;
  if (page.counts.accepted > 0) tally.sent('*', '', id);
  for (const r of page.responses)
    for (const e of r.events)
      if (e.accepted) tally.sent(endpointOf(e.kind, e.event), e.tag ?? '', id);
  for (const v of page.visitEvents ?? []) if (v.accepted) tally.sent(v.endpoint, '', id);
  tally.findings(page.findings, id);
}
