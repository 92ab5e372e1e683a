// What the service decides about a beacon body's text once the request itself is fine (path, method, size,
// media type): invalid JSON, schema problems, or valid. One function for the event loop (small bodies,
// whose parsed value is kept) and for the body worker (large ones, judged off the loop).
import type { ValidationIssue } from '../../shared/events';
import { nestsDeeperThan } from '../../shared/json-depth';
import { validateBeaconBody } from './schemas';

/** Go's encoding/json (the real service) refuses JSON nested deeper than this. */
export const MAX_JSON_DEPTH = 10_000;

export type BodyVerdict =
  /** `tooDeep`: it nests deeper than MAX_JSON_DEPTH (the service's answer is the same; the sandbox says why) */
  | { ok: false; problem: 'json'; tooDeep?: true }
  | { ok: false; problem: 'schema'; issues: ValidationIssue[] }
  | { ok: true };

/** The verdict on a body's text for one endpoint (`search/render`), and its parsed value when it parsed. */
export function judgeBodyText(
  endpoint: string,
  text: string,
): { verdict: BodyVerdict; parsed?: unknown } {
  let parsed: unknown;
  try {
    if (nestsDeeperThan(text, MAX_JSON_DEPTH))
      return { verdict: { ok: false, problem: 'json', tooDeep: true } };
    parsed = JSON.parse(text);
  } catch {
    return { verdict: { ok: false, problem: 'json' } };
  }
  const issues = validateBeaconBody(endpoint, parsed);
  if (issues.length > 0) return { verdict: { ok: false, problem: 'schema', issues }, parsed };
  return { verdict: { ok: true }, parsed };
}
