// A finding as every rule builds it (the timeline rules and the visit rules alike): the key its id is made
// of, which of its rule's messages it says (`messageId`) and the data that fills it, its event ids (each
// once, the first ID_CAP) and how many there were. Its id and its words, the message and the fix that goes
// with it, are written when it is read (`findingDto`), not when its rule runs: a sandbox keeps 100,000 pages
// and their findings, a message names the finding's own ids and events (hundreds of characters each), and
// rules run again and again on a page that is still changing, while its findings are read once or twice.
import type { FindingData, TimelineFindingDto } from '../../shared/timeline';
import { StringPool } from '../store/shared-strings';
import type { RuleMeta } from './rule-meta';

/** Ids a finding (or a page's tally) names at most: findings stay small however noisy a page gets. */
export const ID_CAP = 50;

/** at most 4,096 distinct data values kept for sharing; when full it starts again */
const values = new StringPool(4_096);

/** A data value this long is a clause rather than a name or a number: shared. */
const SHARED_VALUE = 48;

const NO_DATA: FindingData = Object.freeze({});

/** What a rule reports (ESLint's `context.report`): one of its messages by id, and what fills it. */
export interface Report {
  messageId: string;
  data?: FindingData;
}

/** What a finding's words are written from: its rule's messages and fixes. */
export type FindingTexts = Pick<RuleMeta, 'id' | 'messages' | 'fix' | 'fixes'>;

type FindingMeta = FindingTexts &
  Pick<RuleMeta, 'defaultSeverity'> & {
    guards?: readonly string[];
  };

/**
 * A finding as the engine keeps it: the DTO without its words, and the rule's declarations they are written
 * from; without its id, and the key its rule gave it, which the id is made of (`findingDto`).
 */
export interface Finding extends Omit<TimelineFindingDto, 'id' | 'message' | 'fix'> {
  /** what sets it apart from the rule's other findings on the page ('' when it needs nothing) */
  readonly key: string;
  readonly texts: FindingTexts;
}

/** Under test (the rule tester, the unit tests) a missing placeholder throws. */
const strict = typeof process !== 'undefined' && process.env.VITEST !== undefined;

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/**
 * A message (or fix) of a rule with its `{{placeholders}}` filled. A placeholder the data lacks is a
 * mistake of the rule: under test it throws, at run time it stays as written, so a live sandbox never stops
 * judging over one sentence.
 */
export function fillTemplate(template: string, data: FindingData, where: () => string): string {
  const parts = partsOf(template);
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i]!;
    const value = data[name];
    if (value !== undefined) out += String(value);
    else if (strict) throw new Error(`${where()}: no data for {{${name}}}`);
    else out += `{{${name}}}`;
    out += parts[i + 1]!;
  }
  return out;
}

/** A template split at its placeholders: text, name, text, … (rules declare a few hundred at most). */
const split = new Map<string, string[]>();
function partsOf(template: string): string[] {
  let parts = split.get(template);
  if (!parts) split.set(template, (parts = template.split(PLACEHOLDER)));
  return parts;
}

/** Build a finding of a rule at its declared severity; event ids are de-duplicated and capped. */
export function finding(
  meta: FindingMeta,
  key: string,
  report: Report,
  eventIds: Iterable<string>,
  extra: {
    responseId?: string;
    eventCount?: number;
    /** the behaviour it names when not its rule's first (the controller that sent the events) */
    behaviour?: string;
    /** the widget whose response it is, when its events carried another widget's tag */
    widget?: string;
  } = {},
): Finding {
  const { messageId } = report;
  // always a mistake of the rule, whatever the traffic: it throws everywhere
  if (!Object.hasOwn(meta.messages, messageId))
    throw new Error(`rule ${meta.id} has no message "${messageId}"`);
  const data = report.data ? sharedData(report.data) : NO_DATA;
  const ids = [...new Set(eventIds)];
  const rule = meta.id;
  // the behaviour it names: the rule's own choice, else its first (a response's kind may name another:
  // the judge's)
  const behaviour = extra.behaviour ?? meta.guards?.[0];
  const f: Finding = {
    key,
    rule,
    severity: meta.defaultSeverity,
    messageId,
    data,
    texts: meta,
    eventIds: ids.slice(0, ID_CAP),
    eventCount: Math.max(extra.eventCount ?? 0, ids.length),
    ...(extra.responseId !== undefined && { responseId: extra.responseId }),
    ...(behaviour !== undefined && { behaviour }),
    ...(extra.widget !== undefined && { widget: extra.widget }),
  };
  // a placeholder without data is the rule's mistake: under test it is found as the rule runs
  if (strict) findingDto(f);
  return f;
}

/** The message of a finding, filled with its data. */
function messageOf(f: Pick<Finding, 'texts' | 'messageId' | 'data'>): string {
  return fillTemplate(f.texts.messages[f.messageId]!, f.data, () => where(f));
}

/** The fix that goes with its message, filled with the same data. */
function fixOf(f: Pick<Finding, 'texts' | 'messageId' | 'data'>): string {
  const template = f.texts.fixes?.[f.messageId] ?? f.texts.fix;
  return fillTemplate(template, f.data, () => `${where(f)} (fix)`);
}

function where(f: Pick<Finding, 'texts' | 'messageId'>): string {
  return `rule ${f.texts.id}, message "${f.messageId}"`;
}

/**
 * A finding's id, stable within its page: its rule and key (`missing-render:a907…`), and for a response of
 * another kind than search, or a tagged one, that kind and tag (two kinds sharing a responseId never clash).
 */
export function findingId(f: Pick<Finding, 'rule' | 'key' | 'kind' | 'tag'>): string {
  const id = f.key ? `${f.rule}:${f.key}` : f.rule;
  if (f.kind === undefined || (f.kind === 'search' && !f.tag)) return id;
  return `${id}@${f.kind}${f.tag ? `:${f.tag}` : ''}`;
}

/**
 * A finding as it is read: its id and words written in where the finding keeps what they are made of,
 * every other field as it is and in its order (a report lists a finding's fields as it always has).
 */
export function findingDto(f: Finding): TimelineFindingDto {
  const out: Record<string, unknown> = {};
  for (const k in f) {
    if (k === 'key') out.id = findingId(f);
    else if (k === 'texts') {
      out.message = messageOf(f);
      out.fix = fixOf(f);
    } else out[k] = f[k as keyof Finding];
  }
  return out as unknown as TimelineFindingDto;
}

function sharedData(data: FindingData): FindingData {
  let out: Record<string, string | number> | undefined;
  for (const k in data) {
    const v = data[k];
    if (typeof v === 'string' && v.length >= SHARED_VALUE)
      (out ??= { ...data })[k] = values.share(v);
  }
  return out ?? data;
}

/** A length of time as a message says it: "0.4 s", "12 s", "3 min". */
export function duration(ms: number): string {
  if (ms >= 120_000) return `${Math.round(ms / 60_000)} min`;
  return ms >= 10_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`;
}
