// What a recorded event says of itself besides its request (request-fields.ts): its id, site, endpoint,
// receive time and the sandbox's verdict. `check` trusts them as the live sandbox wrote them (a verdict is
// not validated again), so one that is not what the sandbox writes is refused, naming the field, not read
// as something else (`"accepted": "yes"` was validated again, `"receivedAt": "yesterday"` judged as no time).
import type { ValidationIssue } from '../../shared/events';
import { parseRfc3339 } from '../../shared/rfc3339';
import { isIssues } from '../store/recorded-event';
import { InputError } from './recorded';
import { recordedValue as quoted } from '../../shared/text';

/** Field `key` of `v` (line `where`) refused: what it must be, and what to do instead. */
function refused(
  v: Record<string, unknown>,
  where: string,
  key: string,
  rule: string,
  fix = 'leave it out when unknown',
): InputError {
  return new InputError(`${where}: field ${key} is ${quoted(v[key])}: it must be ${rule}; ${fix}`);
}

const STRINGS = {
  siteId: 'the siteId of the path, e.g. "demo42" ("" when the path had none)',
  category: 'the beacon category, e.g. "search" or "cart"',
  kind: 'the timelines\' name of the category, e.g. "search"',
  event: 'the event of the category, e.g. "render" or "add"',
} as const;
/** read once: every recorded event of a recording is asked for them */
const STRING_KEYS = Object.keys(STRINGS) as Array<keyof typeof STRINGS>;

const VERDICT =
  'a recorded verdict is "accepted", "status" and "errors" together, as GET /_sandbox/export writes them ({"accepted": true, "status": 200, "errors": []}); leave all three out to have the body validated';

export interface RecordFields {
  id?: string;
  siteId?: string;
  category?: string;
  kind?: string;
  event?: string;
  /** '' when the line gives none */
  receivedAt: string;
  /** the sandbox's verdict, when the line carries one */
  verdict?: { accepted: boolean; status: number; errors: ValidationIssue[] };
}

/**
 * The fields of recorded event `v` (element or line `where`) that say what it is and what the sandbox
 * answered; each one present must be what the sandbox writes, else InputError naming it.
 */
export function recordFields(v: Record<string, unknown>, where: string): RecordFields {
  const fields: RecordFields = { receivedAt: '' };
  if (v.id !== undefined) {
    if (typeof v.id !== 'string' || v.id === '')
      throw refused(
        v,
        where,
        'id',
        'the event\'s id, a string such as "ev_000001"',
        'leave it out to number the line',
      );
    fields.id = v.id;
  }
  for (const key of STRING_KEYS) {
    const value = v[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw refused(v, where, key, `a string, ${STRINGS[key]}`);
    fields[key] = value;
  }
  const at = v.receivedAt;
  if (at !== undefined && at !== '') {
    // read as the timelines read it (the sandbox's own form first, without a regular expression)
    if (typeof at !== 'string' || parseRfc3339(at) === null)
      throw refused(
        v,
        where,
        'receivedAt',
        'the time the sandbox received the event, ISO 8601 with seconds and its zone as the sandbox writes it, e.g. "2026-11-21T05:00:00.000Z"',
      );
    fields.receivedAt = at;
  }
  const { accepted, status, errors } = v;
  if (accepted === undefined && status === undefined && errors === undefined) return fields;
  if (accepted !== undefined && typeof accepted !== 'boolean')
    throw refused(
      v,
      where,
      'accepted',
      'true or false, whether the sandbox accepted the event',
      VERDICT,
    );
  if (
    status !== undefined &&
    (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599)
  )
    throw refused(
      v,
      where,
      'status',
      'the HTTP status the sandbox answered, a number from 100 to 599',
      VERDICT,
    );
  if (errors !== undefined && !isIssues(errors))
    throw refused(
      v,
      where,
      'errors',
      'the list of what the sandbox found wrong, [{"message": "…", "path": "…"}] ([] for an accepted event)',
      VERDICT,
    );
  if (accepted === undefined || errors === undefined) {
    const missing = accepted === undefined ? 'accepted' : 'errors';
    throw new InputError(`${where}: field ${missing} is missing: ${VERDICT}`);
  }
  // the service accepts a beacon exactly when it answers 200 (as an import checks it)
  if (status !== undefined && accepted !== (status === 200))
    throw new InputError(
      `${where}: field accepted is ${accepted} with status ${status}: an event is accepted exactly when its status is 200; ${VERDICT}`,
    );
  fields.verdict = {
    accepted,
    status: typeof status === 'number' ? status : accepted ? 200 : 400,
    errors: errors as ValidationIssue[],
  };
  return fields;
}
