// Admin API of the sandbox clock (test-clock style): read it, advance it by an ISO 8601 duration,
// set it to an instant, or reset it to real time. Advancing fires every timer it passes, in order.
import express, { type Router } from 'express';
import { mount } from '../admin-query';
import { fieldRefusal } from '../admin-body';
import { shown } from '../../../shared/text';
import { clockMoveProblem, type SandboxClock } from '../../clock';
import { BadQuery } from '../admin-refusal';
import type { ClockState } from '../../../shared/stream';
import { calendarDurationProblem, parseInstant, parseIsoDuration } from '../../durations';

function state(clock: SandboxClock): ClockState {
  return {
    now: new Date(clock.now()).toISOString(),
    offsetMs: clock.offset,
    frozen: clock.frozen,
  };
}

/**
 * `moved`: makes the move, and resolves once the steps it reached are taken (an index parsing its file in
 * real time, then the end it fires) and stored: the answer then shows the feeds where the clock put them,
 * as a restart finds them. It throws the domain's refusal when they cannot be stored (503).
 */
export function adminClockRouter(
  clock: SandboxClock,
  moved: (move: () => void) => Promise<void> = async (move) => move(),
): Router {
  const router = express.Router();

  mount(router, 'clock', (_req, res) => {
    res.json(state(clock));
  });

  // the body holds exactly one of the three, each of its type (the declaration's schema, checked by mount)
  mount(router, 'setClock', async (_req, res, _query, body) => {
    await moved(clockMove(clock, body));
    res.setHeader('X-Sandbox-Now', new Date(clock.now()).toISOString());
    res.json(state(clock));
  });

  return router;
}

/** The move the body asks for, checked before anything moves (a BadQuery names the field otherwise). */
function clockMove(
  clock: SandboxClock,
  body: { advance?: string; set?: string; reset?: boolean },
): () => void {
  // what the types allow: a duration, an instant
  if (body.advance !== undefined) {
    const ms = parseIsoDuration(body.advance);
    const calendar = ms === null ? calendarDurationProblem(body.advance) : null;
    if (calendar) throw new BadQuery('body.advance', `advance: ${shown(body.advance)} ${calendar}`);
    if (ms === null) throw fieldRefusal('setClock', 'advance', body.advance);
    const problem = clockMoveProblem(clock.now(), clock.now() + ms);
    if (problem) throw new BadQuery('body.advance', `advance: ${shown(body.advance)} ${problem}`);
    return () => clock.advance(ms);
  }
  if (body.set !== undefined) {
    const t = parseInstant(body.set);
    if (t === null) throw fieldRefusal('setClock', 'set', body.set);
    const problem = clockMoveProblem(clock.now(), t);
    if (problem) throw new BadQuery('body.set', `set: ${shown(body.set)} ${problem}`);
    return () => clock.set(t);
  }
  return () => clock.reset();
}
