// Admin API over the whole visit (README, "The whole visit and its credit"): visits and orders with
// each line's credit and each order's findings, one order by its eventId, and the orders' revenue
// summary. Thin: check the query, ask the timelines, stream the answer.
import { Router, type Response } from 'express';
import type { TimelineEngine } from '../../tracking/timeline/engine';
import { mount, sendJsonText } from '../admin-query';
import { shown } from '../../../shared/text';
import { streamBody } from '../stream-body';
import { arrayOf } from '../../store/json-pieces';
import { Slicer } from '../../slices';

export function adminVisitsRouter(timelines: TimelineEngine): Router {
  const router = Router();
  // 10,000 visits or orders: each is built (or taken from its cache) as the body is written, in slices
  const answer = async (res: Response, list: Iterable<string>) => {
    res.type('application/json');
    await streamBody(res, arrayOf(list));
  };
  mount(router, 'visits', (_req, res, q) => answer(res, timelines.visitJson(q)));
  mount(router, 'orders', (_req, res, q) => answer(res, timelines.orderJson(q)));
  // before orders/{eventId}: `summary` is a path of its own (event ids start with ev_)
  mount(router, 'ordersSummary', async (_req, res, q) => {
    const slicer = new Slicer();
    res.json(await timelines.ordersSummary(q, () => slicer.breathe()));
  });
  mount(router, 'order', (req, res) => {
    const eventId = String(req.params.eventId);
    const json = timelines.orderJsonOf(eventId);
    if (json === undefined) {
      res.status(404).json({
        error: 'NotFound',
        message: `no order/transaction with eventId ${shown(eventId)}: an order is addressed by the eventId of its order/transaction (ev_…, as GET /_sandbox/orders lists it), not by its orderId; it may also have been reset or dropped by retention`,
      });
      return;
    }
    sendJsonText(res, json);
  });
  return router;
}
