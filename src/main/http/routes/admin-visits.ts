// Admin API over the whole visit (CONTRACT.md, "The whole visit"): visits and orders with each line's
// credit. Thin: check the query, ask core.timelines, stream the answer.
import { Router, type Request, type Response } from 'express';
import type { SandboxCore } from '../../core';
import type { OrderFilter } from '../../../shared/visits';
import { concat, streamBody } from '../stream-body';

const VISIT_FILTERS = ['siteId', 'sessionId', 'userId'] as const;
const ORDER_FILTERS = [...VISIT_FILTERS, 'orderId'] as const;

type Parsed = { ok: true; filter: OrderFilter } | { ok: false; parameter: string; message: string };

function parse(req: Request, allowed: readonly (keyof OrderFilter)[]): Parsed {
  const filter: OrderFilter = {};
  for (const [key, v] of Object.entries(req.query)) {
    if (!(allowed as readonly string[]).includes(key))
      return {
        ok: false,
        parameter: key,
        message: `unknown query parameter "${key}"; allowed: ${allowed.join(', ')}`,
      };
    if (typeof v !== 'string')
      return {
        ok: false,
        parameter: key,
        message: `${key} was given more than once: give it once`,
      };
    filter[key as keyof OrderFilter] = v;
  }
  return { ok: true, filter };
}

/** JSON texts joined into the elements of an array. */
function* joined(items: Iterable<string>): Generator<string> {
  let first = true;
  for (const json of items) {
    yield first ? json : `,${json}`;
    first = false;
  }
}

export function adminVisitsRouter(core: Pick<SandboxCore, 'timelines'>): Router {
  const router = Router();
  const answer =
    (allowed: readonly (keyof OrderFilter)[], list: (filter: OrderFilter) => Iterable<string>) =>
    async (req: Request, res: Response) => {
      const parsed = parse(req, allowed);
      if (!parsed.ok) {
        res
          .status(400)
          .json({ error: 'BadRequest', parameter: parsed.parameter, message: parsed.message });
        return;
      }
      res.type('application/json');
      // 10,000 visits or orders: each is built (or taken from its cache) as the body is written, in slices
      await streamBody(res, concat('[', joined(list(parsed.filter)), ']'));
    };
  router.get(
    '/visits',
    answer(VISIT_FILTERS, (f) => core.timelines.visitJson(f)),
  );
  router.get(
    '/orders',
    answer(ORDER_FILTERS, (f) => core.timelines.orderJson(f)),
  );
  return router;
}
