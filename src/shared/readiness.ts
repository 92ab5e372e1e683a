// Integration readiness: per site, each behaviour of the client model with what
// the site's traffic shows of it — ok, findings, unseen or not applicable — and the gate a CI run puts on
// it (`expectReady`, `check --readiness`). Shared by the server, the renderer and the package's types.
import { didYouMean } from './nearest';
import { BEHAVIOUR_AREAS, type BehaviourArea } from './client-model';
import type { Severity } from './verdict';

export const READINESS_STATUSES = ['ok', 'findings', 'unseen', 'not-applicable'] as const;
export type ReadinessStatus = (typeof READINESS_STATUSES)[number];

/**
 * What a rule may need beyond the traffic itself, without which it has nothing to judge (its meta's
 * `judgesOnlyWith`): `issued`, the response as the sandbox's companion search issued it; `catalog`, the
 * site's product catalog, checked; `companion`, a site that searches through the sandbox; `upstream`, the
 * real service's answer to each event (forwarding).
 */
export const RULE_INPUTS = ['issued', 'catalog', 'companion', 'upstream'] as const;
export type RuleInput = (typeof RULE_INPUTS)[number];

/** What kept a rule from judging: an input it lacked, or being off (`rules`). */
export type ReadinessLack = RuleInput | 'off';

/** What a rule lacked, as a row's words say it: `the responses the sandbox's companion search issued`. */
export const LACK_WHAT: Readonly<Record<ReadinessLack, string>> = {
  issued: "the responses the sandbox's companion search issued",
  catalog: "the site's catalog",
  companion: 'a site that searches through the sandbox',
  upstream: "the real service's answers",
  off: 'to be on',
};

/** How to give the rules what they lacked, said the same live and by `check` (one judgement, one advice). */
export const LACK_HOW: Readonly<Record<ReadinessLack, string>> = {
  issued:
    "point the storefront's search, autocomplete and recommend requests at the sandbox (accounts[].search.companion) and record through it; `check` reads them from a sandbox export (GET /_sandbox/export), or from a HAR that kept the sandbox's answers with their bodies",
  catalog:
    "index the site's feed in the sandbox with accounts[].search.catalogCheck on (a site that uses the companion search has its listings checked against what it issued instead), or give it to `check` with --catalog SITE=FILE",
  companion:
    'set accounts[].search.companion: true for a storefront that searches through the sandbox',
  upstream:
    'turn tracking.forward on, so that the real service answers each event too (`check` compares the answers a sandbox export recorded)',
  off: 'turn them on: `rules` or accounts[].rules in the config, --rule RULE=LEVEL for `check`',
};

/** One thing the rules that guard a behaviour lacked, the rules that lacked it, and how to give it. */
export interface UnverifiedDto {
  lacks: ReadinessLack;
  rules: string[];
  how: string;
}

/** One behaviour (one per declared widget tag for recommendations and bundles) as the site shows it. */
export interface ReadinessRowDto {
  /** the behaviour's id in the client model (`search.render`, `cart.ledger`) */
  id: string;
  title: string;
  area: BehaviourArea;
  status: ReadinessStatus;
  /** the widget's profile tag (recommendations and bundles) */
  tag?: string;
  /** `ok`: the newest page that shows it */
  example?: { pageLoadId: string };
  /**
   * `findings`: its worst finding (the newest of the most severe) and the page it is on; on the page of
   * requests that carried no pageLoadId (`pageLoadId` ''), `request` says which (`ev_3, a refused CORS
   * preflight to /beacon/v2/demo42/search/render`)
   */
  worst?: {
    rule: string;
    severity: Severity;
    pageLoadId: string;
    request?: string;
    /** what the finding says happened, cut short at a word past 160 characters (its page says it whole) */
    message: string;
    /** how to fix it, one line */
    fix: string;
  };
  /**
   * a widget's events row (`recommendations.events`, `bundles.widget`): the other tags its events were
   * sent with. Their responseId is this widget's (its page rendered it with this tag), so they count here,
   * their findings too, and never on the rows of the tag they carried.
   */
  wrongTags?: string[];
  /** `unseen`: the client call or script tag that sends it */
  next?: string;
  /** `not-applicable`: why it does not apply to this site */
  why?: string;
  /**
   * `ok` that nothing verified: seen, but none of the rules that guard it could judge this traffic (each
   * lacked an input, or is off): what they lacked, which rules, and how to give it. Absent when one of
   * them could judge it (and found no warning or error).
   */
  unverified?: UnverifiedDto[];
}

/**
 * A row's worst finding as its line says it, with what happened and the fix: `error schema on page
 * pl-1796085764: unknown field: "data"; fix: …`; on the page of requests without a pageLoadId, named as
 * `check`'s report and `tail` name it, with the request: `error request-refused on page (no pageLoadId):
 * ev_3, a refused CORS preflight to /beacon/v2/…; …`.
 */
export function worstLine(w: NonNullable<ReadinessRowDto['worst']>): string {
  const page =
    w.pageLoadId !== ''
      ? `page ${w.pageLoadId}`
      : `page (no pageLoadId)${w.request !== undefined ? `: ${w.request}` : ''}`;
  const said = w.message ? `${w.pageLoadId !== '' ? ':' : ';'} ${w.message}` : '';
  // the fix's full stop would end the line before what may follow it (a wrong tag)
  const fix = w.fix ? `; fix: ${w.fix.replace(/\.$/, '')}` : '';
  return `${w.severity} ${w.rule} on ${page}${said}${fix}`;
}

/**
 * What a widget's row says of its events sent with another widget's tag, and the fix: `its events were
 * sent with tag "similiar": send them with data.tag "similar"`; '' for a row without.
 */
export function wrongTagsLine(r: Pick<ReadinessRowDto, 'tag' | 'wrongTags'>): string {
  const wrong = r.wrongTags ?? [];
  if (wrong.length === 0) return '';
  const tags = wrong.map((t) => `"${t}"`).join(', ');
  return `its events were sent with ${wrong.length === 1 ? 'tag' : 'tags'} ${tags}: send them with data.tag "${r.tag ?? ''}"`;
}

/** The traffic showed the behaviour (with or without findings): an expected area passes once one row was. */
export function wasSeen(r: Pick<ReadinessRowDto, 'status'>): boolean {
  return r.status === 'ok' || r.status === 'findings';
}

/**
 * Why an `ok` row is unverified, in one line: `no rule could check it: item-not-in-response and
 * parentid-mismatch need the responses the sandbox's companion search issued (point …)`; without `how`,
 * what they need alone (a report that says how once, below its rows).
 */
export function unverifiedLine(r: Pick<ReadinessRowDto, 'unverified'>, how = true): string {
  const parts = (r.unverified ?? []).map(
    (u) => `${u.rules.join(', ')} ${lackWords(u.lacks, u.rules.length)}${how ? ` (${u.how})` : ''}`,
  );
  return `no rule could check it: ${parts.join('; ')}`;
}

/** `need the site's catalog`, `is off` */
function lackWords(lack: ReadinessLack, rules: number): string {
  if (lack === 'off') return rules === 1 ? 'is off' : 'are off';
  return `${rules === 1 ? 'needs' : 'need'} ${LACK_WHAT[lack]}`;
}

export interface ReadinessDto {
  siteId: string;
  /** what the site means to implement (`accounts[].readiness.expect`): behaviour ids or areas */
  expect: string[];
  behaviours: ReadinessRowDto[];
  summary: {
    ok: number;
    findings: number;
    unseen: number;
    notApplicable: number;
    /** of the `ok` rows, those no rule could check (`unverified`) */
    unverified?: number;
  };
  /**
   * What keeps the site from being ready for `expect`, a line each (`readinessGaps`, at error: the gate of
   * `expectReady` and `check --readiness` by default); empty: ready. Absent when nothing is expected.
   */
  gaps?: string[];
}

/** An `expect` entry is a behaviour id or an area; `known` are the model's behaviour ids. */
export function expectProblem(entry: unknown, known: readonly string[]): string | undefined {
  if (typeof entry !== 'string' || entry === '')
    return `${JSON.stringify(entry)} is not a behaviour id or an area: use an id such as "${known[0]}" or an area such as "cart"`;
  if (known.includes(entry) || (BEHAVIOUR_AREAS as readonly string[]).includes(entry))
    return undefined;
  const ofArea = known.filter((id) => id.startsWith(`${entry.split('.')[0]}.`));
  return (
    `"${entry}" is neither a behaviour id nor an area of the client model (docs/client-model.md); ${didYouMean(entry, [...known, ...BEHAVIOUR_AREAS])}areas: ${BEHAVIOUR_AREAS.join(', ')}` +
    (ofArea.length > 0 ? `; ids of that area: ${ofArea.join(', ')}` : '')
  );
}

const WEIGHT: Record<Severity, number> = { error: 2, warning: 1, info: 0 };

/**
 * In an unseen row's `next`, what follows this is the row's own words (what sends its behaviour beyond the
 * call, what shows it): an area's summary, which says each call once for all its rows, leaves it out
 */
export const ROW_OWN = '; it is ';
/** what shows a behaviour its endpoint's arrival does not show (readiness.ts EXERCISED) */
export const SEEN_ON = `${ROW_OWN}seen on `;
/** what of the page sends a behaviour, beyond the controller that its area's rows share */
export const SENT_BY = `${ROW_OWN}sent `;

/**
 * What sends an unseen area, each client call said once: its behaviours mostly share one (`a Snap
 * SearchController … on the search page`), a widget's rows say it with their tag, and a behaviour seen only
 * in some setup says the same call and then that setup (`…, with merchandising banners carrying
 * data-banner-id`). So: the call, its tags, then the setups some behaviours need; every other call as it is.
 */
function areaNext(area: readonly ReadinessRowDto[]): string {
  const tagsOf = new Map<string, string[]>();
  for (const r of area) {
    let text = r.next?.split(ROW_OWN, 1)[0] ?? r.why;
    if (!text) continue;
    const tagged = r.tag !== undefined ? ` (tag "${r.tag}")` : '';
    if (tagged && text.endsWith(tagged)) text = text.slice(0, -tagged.length);
    const tags = tagsOf.get(text) ?? [];
    if (tagged && !tags.includes(r.tag!)) tags.push(r.tag!);
    tagsOf.set(text, tags);
  }
  const said = [...tagsOf].map(([text, tags]) =>
    tags.length === 0
      ? text
      : `${text} (${tags.length === 1 ? 'tag' : 'tags'} ${tags.map((t) => `"${t}"`).join(', ')})`,
  );
  const extending = (text: string, call: string) => text.startsWith(`${call}, with `);
  return said
    .filter((text) => !said.some((call) => extending(text, call)))
    .map((call) => {
      const setups = said.filter((t) => extending(t, call)).map((t) => t.slice(call.length + 2));
      return setups.length === 0
        ? call
        : `${call}; some of its behaviours are seen only ${setups.join(' or ')}`;
    })
    .join('; ');
}

/** Readiness's gate: `failOn` error (default), warning or info (findings below warning never block). */
export type ReadinessFailOn = Severity;

/**
 * What keeps the site from being ready for `expect` (behaviour ids or areas): one line per expected row
 * that is unseen, not applicable, has findings at or above `failOn`, or is `ok` but unverified (an id
 * named in `expect` is a promise that it works, which a row no rule could check cannot keep: the line says
 * what would check it); an area fails when none of its rows was seen, or when one of them has such
 * findings (an area holds the site to what it sent, so its unverified rows are said, not failed). Empty:
 * ready.
 */
export function readinessGaps(
  readiness: ReadinessDto,
  expect: readonly string[],
  failOn: ReadinessFailOn = 'error',
): string[] {
  const gaps: string[] = [];
  const name = (r: ReadinessRowDto) => (r.tag !== undefined ? `${r.id} (tag "${r.tag}")` : r.id);
  const blocking = (r: ReadinessRowDto) =>
    r.status === 'findings' && r.worst !== undefined && WEIGHT[r.worst.severity] >= WEIGHT[failOn];
  const findingLine = (r: ReadinessRowDto) =>
    `${name(r)} has findings: ${worstLine(r.worst!)}${r.wrongTags ? `; ${wrongTagsLine(r)}` : ''}`;
  for (const entry of new Set(expect)) {
    const rows = readiness.behaviours.filter((r) => r.id === entry);
    if (rows.length > 0) {
      for (const r of rows) {
        if (r.status === 'unseen') gaps.push(`${name(r)} is unseen: send it with ${r.next}`);
        else if (r.status === 'not-applicable')
          gaps.push(`${name(r)} is expected but not applicable: ${r.why}`);
        else if (blocking(r)) gaps.push(findingLine(r));
        else if (r.unverified !== undefined)
          gaps.push(`${name(r)} was seen but not verified: ${unverifiedLine(r)}`);
      }
      continue;
    }
    const area = readiness.behaviours.filter((r) => r.area === entry);
    if (area.length === 0) {
      gaps.push(`"${entry}" is neither a behaviour id nor an area of the client model`);
      continue;
    }
    if (!area.some(wasSeen))
      gaps.push(`area ${entry} is unseen: nothing of it was sent (${areaNext(area)})`);
    for (const r of area) if (blocking(r)) gaps.push(findingLine(r));
  }
  return gaps;
}
