// Admin API over the whole visit (CONTRACT.md, "The whole visit"): visits and orders with each line's
// credit. Thin: check the query, ask timelines, stream the answer.
import { Router, type Response } from 'express';
import type { TimelineEngine } from '../../tracking/timeline/engine';
import { mount } from '../admin-query';
import { streamBody } from '../stream-body';
import { arrayOf } from '../../store/json-pieces';

export function adminVisitsRouter(timelines: TimelineEngine): Router {
  const router = Router();
  // 10,000 visits or orders: each is built (or taken from its cache) as the body is written, in slices
  const answer = async (res: Response, list: Iterable<string>) => {
    res.type('application/json');
    await streamBody(res, arrayOf(list));
  };
  mount(router, 'visits', (_req, res, q) => answer(res, timelines.visitJson(q)));
  mount(router, 'orders', (_req, res, q) => answer(res, timelines.orderJson(q)));
  return router;
}
