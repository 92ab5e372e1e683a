// What `check` says when the input gave the provenance rules nothing to judge with: a recording without the
// responses the sandbox's companion search issued (NDJSON, a HAR without the sandbox's answers). Said once,
// in readiness's words (LACK_WHAT, LACK_HOW), so that a run that passes says which rules did not judge it.
import { LACK_HOW, LACK_WHAT, type UnverifiedDto } from '../../../shared/readiness';
import { RULE_METAS } from './rule-list';

/** The rules that judge nothing without the issued responses (nor without a site that searches through the sandbox, which only they make). */
const NEED_ISSUED = RULE_METAS.filter((m) =>
  m.judgesOnlyWith?.some((input) => input === 'issued' || input === 'companion'),
).map((m) => m.id);

/** The rules that did not judge a recording without issued responses, those of them `off` leaves out. */
export function unjudgedWithoutIssued(off: (rule: string) => boolean): UnverifiedDto {
  return { lacks: 'issued', rules: NEED_ISSUED.filter((r) => !off(r)), how: LACK_HOW.issued };
}

/** Rules named on stderr before the rest are counted: the note is one line of every run's log. */
const NAMED = 3;

/**
 * The note on stderr: which rules could not judge (the first few, the rest counted: `--format json` lists
 * every one under `unjudged`), what they lacked, and how to give it to them.
 */
export function unjudgedNote(u: UnverifiedDto): string {
  const n = u.rules.length;
  const named =
    n <= NAMED + 1
      ? u.rules.join(', ')
      : `${u.rules.slice(0, NAMED).join(', ')} and ${n - NAMED} more: check --format json lists them under "unjudged"`;
  return `the input carries none of ${LACK_WHAT[u.lacks]}, so ${n === 1 ? 'one rule' : `${n} rules`} that judge only with them did not judge it (${named}); missing-render reads a stale responseId as a possible backfill then (missing-render-backfill, info). To give them what they need: ${u.how}`;
}
