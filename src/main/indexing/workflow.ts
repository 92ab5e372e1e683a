// The workflow scorecard: did a bulk index request follow the seed's recipe ("check status, proceed only
// when status is success and the feed is done, then request")? Plus transport and retry findings.
import type { IndexStatus, Scorecard, WorkflowFinding, WorkflowFlag } from '../../shared/indexing';
import type { StatusRead } from './feed-db';

/** A status read counts as "checked first" for this long before a request (sandbox clock). */
export const STATUS_FRESH_MS = 15 * 60_000;

export type RequestOutcome =
  'accepted' | 'paused' | 'refused-waiting' | 'refused-hour' | 'refused-never' | 'refused-no-file';

export interface ScoreInput {
  feedId: number;
  now: number;
  statusRead: StatusRead | undefined;
  outcome: RequestOutcome;
  /** the request came over plain HTTP */
  plainHttp: boolean;
  /**
   * the sandbox's own Feeds view sent it: the person at the board sees the feed's state there, so no
   * status read is expected, and the UI's transport is the sandbox's, not the integration's
   */
  fromSandboxUi: boolean;
}

// Findings about transport do not change whether the recommended order of calls was followed.
const BEHAVIOUR: WorkflowFlag[] = [
  'no-status-check',
  'status-not-done',
  'requested-while-waiting',
  'paused-running-index',
  'retry-inside-hour',
];

export function scoreRequest(input: ScoreInput): Scorecard {
  const findings: WorkflowFinding[] = [];
  const read =
    input.statusRead &&
    input.now - input.statusRead.at <= STATUS_FRESH_MS &&
    input.statusRead.at <= input.now
      ? input.statusRead
      : undefined;
  const seen: IndexStatus | null = read ? (read.seen[String(input.feedId)] ?? null) : null;
  if (input.fromSandboxUi) {
    findings.push({
      flag: 'sandbox-ui',
      message:
        "sent from the sandbox's own Feeds view (X-Sandbox-No-Challenge from a page of the sandbox's own origin, Sec-Fetch-Site: same-origin), which shows the feed's state itself: not scored for a status read or its transport, as an integration's request is; what the request did (a 409, a pause) is still flagged",
    });
  } else if (!read) {
    findings.push({
      flag: 'no-status-check',
      message: `no GET /api/index/status in the ${STATUS_FRESH_MS / 60_000} minutes before this request: read the status first and request only when feed ${input.feedId} is "done"`,
    });
  } else if (seen !== 'done') {
    findings.push({
      flag: 'status-not-done',
      message: `the last status read reported feed ${input.feedId} as "${seen ?? 'missing'}", yet the client requested an index: wait until it reports "done"`,
    });
  }
  if (input.outcome === 'refused-waiting') {
    findings.push({
      flag: 'requested-while-waiting',
      message: `feed ${input.feedId} was already queued: the request changed nothing (success:false)`,
    });
  }
  if (input.outcome === 'paused') {
    findings.push({
      flag: 'paused-running-index',
      message: `feed ${input.feedId} was running: the request paused the index (status now reports "waiting") and it resumes only by hand`,
    });
  }
  if (input.outcome === 'refused-hour') {
    findings.push({
      flag: 'retry-inside-hour',
      message: `a re-index of feed ${input.feedId} was already accepted within the hour: wait for Retry-After instead of retrying`,
    });
  }
  if (input.plainHttp && !input.fromSandboxUi) {
    findings.push({
      flag: 'plain-http',
      message:
        'the credentials went over plain HTTP; the real service requires HTTPS (start the sandbox with --https-port to test that path)',
    });
  }
  return {
    followed:
      (input.fromSandboxUi || seen === 'done') && !findings.some((f) => BEHAVIOUR.includes(f.flag)),
    statusReadAt: read ? new Date(read.at).toISOString() : null,
    statusSeen: seen,
    findings,
  };
}
