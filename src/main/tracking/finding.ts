// A finding as every rule builds it (the timeline rules and the visit rules alike): its id, the message its
// rule declared under `messageId` filled with the finding's data, the fix that goes with that message, its
// event ids (each once, the first ID_CAP) and how many there were.
//
// A finding's message and fix are held as long as its page is kept, and a sandbox keeps 100,000 pages: a
// text found word for word on many pages (`10 of the 10 accepted events on this page were sent in
// production mode …`) is kept as one string. Values only: every finding keeps its text.
import type { FindingData, TimelineFindingDto } from '../../shared/timeline';
import { StringPool } from '../store/shared-strings';
import type { RuleMeta } from './rule-meta';

/** Ids a finding (or a page's tally) names at most: findings stay small however noisy a page gets. */
export const ID_CAP = 50;

/** at most 4,096 distinct texts kept for sharing; when full it starts again */
const texts = new StringPool(4_096);

/** A data value this long is a clause rather than a name or a number: shared like the texts. */
const SHARED_VALUE = 48;

const NO_DATA: FindingData = Object.freeze({});

/** What a rule reports (ESLint's `context.report`): one of its messages by id, and what fills it. */
export interface Report {
  messageId: string;
  data?: FindingData;
}

type FindingMeta = Pick<RuleMeta, 'id' | 'defaultSeverity' | 'messages' | 'fix' | 'fixes'> & {
  guards?: readonly string[];
};

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
  extra: { responseId?: string; eventCount?: number } = {},
): TimelineFindingDto {
  const { messageId } = report;
  const template = Object.hasOwn(meta.messages, messageId) ? meta.messages[messageId] : undefined;
  // always a mistake of the rule, whatever the traffic: it throws everywhere
  if (template === undefined) throw new Error(`rule ${meta.id} has no message "${messageId}"`);
  const data = report.data ? sharedData(report.data) : NO_DATA;
  // said only when a placeholder has no data
  const where = () => `rule ${meta.id}, message "${messageId}"`;
  const ids = [...new Set(eventIds)];
  const rule = meta.id;
  return {
    id: key ? `${rule}:${key}` : rule,
    rule,
    severity: meta.defaultSeverity,
    messageId,
    data,
    message: texts.share(fillTemplate(template, data, where)),
    fix: texts.share(
      fillTemplate(meta.fixes?.[messageId] ?? meta.fix, data, () => `${where()} (fix)`),
    ),
    eventIds: ids.slice(0, ID_CAP),
    eventCount: Math.max(extra.eventCount ?? 0, ids.length),
    ...(extra.responseId !== undefined && { responseId: extra.responseId }),
    // the behaviour it names: its rule's first (a response's kind may name another: the judge's)
    ...(meta.guards?.[0] !== undefined && { behaviour: meta.guards[0] }),
  };
}

function sharedData(data: FindingData): FindingData {
  let out: Record<string, string | number> | undefined;
  for (const k in data) {
    const v = data[k];
    if (typeof v === 'string' && v.length >= SHARED_VALUE)
      (out ??= { ...data })[k] = texts.share(v);
  }
  return out ?? data;
}

/** A length of time as a message says it: "0.4 s", "12 s", "3 min". */
export function duration(ms: number): string {
  if (ms >= 120_000) return `${Math.round(ms / 60_000)} min`;
  return ms >= 10_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`;
}
