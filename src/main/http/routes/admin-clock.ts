// Admin API of the sandbox clock (test-clock style): read it, advance it by an ISO 8601 duration,
// set it to an instant, or reset it to real time. Advancing fires every timer it passes, in order.
import express, { type Router } from 'express';
import { mount } from '../admin-query';
import type { SandboxCore } from '../../core';
import type { ClockState } from '../../../shared/stream';
import { parseIsoDuration } from '../../durations';

function state(core: SandboxCore): ClockState {
  return {
    now: new Date(core.clock.now()).toISOString(),
    offsetMs: core.clock.offset,
    frozen: core.clock.frozen,
  };
}

const USAGE =
  'send exactly one of {"advance": "PT61M"} (ISO 8601 duration), {"set": "2026-11-22T04:00:00Z"} (ISO 8601 instant) or {"reset": true}';

export function adminClockRouter(core: SandboxCore): Router {
  const router = express.Router();

  mount(router, 'clock', (_req, res) => {
    res.json(state(core));
  });

  mount(router, 'setClock', (req, res) => {
    const body: unknown = req.body;
    const bad = (message: string) => res.status(400).json({ error: 'BadRequest', message });
    if (!body || typeof body !== 'object' || Array.isArray(body))
      return void bad(`the body must be JSON: ${USAGE}`);
    const keys = Object.keys(body);
    const unknown = keys.find((k) => !['advance', 'set', 'reset'].includes(k));
    if (unknown) return void bad(`${unknown}: unknown field; ${USAGE}`);
    if (keys.length !== 1)
      return void bad(keys.length ? `${keys.join(' and ')} together: ${USAGE}` : USAGE);
    const b = body as { advance?: unknown; set?: unknown; reset?: unknown };
    if (b.advance !== undefined) {
      const ms = typeof b.advance === 'string' ? parseIsoDuration(b.advance) : null;
      if (ms === null)
        return void bad(
          `advance: ${JSON.stringify(b.advance)} is not an ISO 8601 duration; use e.g. "PT61M", "PT1H30M", "P1D" (years and months are not accepted: their length varies)`,
        );
      core.clock.advance(ms);
    } else if (b.set !== undefined) {
      const t =
        typeof b.set === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(b.set) ? Date.parse(b.set) : NaN;
      if (!Number.isFinite(t))
        return void bad(
          `set: ${JSON.stringify(b.set)} is not an ISO 8601 instant; use e.g. "2026-11-22T04:00:00Z"`,
        );
      core.clock.set(t);
    } else {
      if (b.reset !== true) return void bad(`reset: ${JSON.stringify(b.reset)} must be true`);
      core.clock.reset();
    }
    res.setHeader('X-Sandbox-Now', new Date(core.clock.now()).toISOString());
    res.json(state(core));
  });

  return router;
}
