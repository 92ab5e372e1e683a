// Admin API of feeds: list with sandbox details, PATCH settings and injected faults, hand transitions
// along the table (409 lists the allowed targets), and a look at a feed's indexed catalog.
import express, { type Response, type Router } from 'express';
import type { IndexingService } from '../../indexing/service';
import { mount } from '../admin-query';
import { parseAdminBody } from '../admin-body';
import { FeedNotFound, FeedSettingRefused, HandMoveConflict } from '../../indexing/admin';
import { TransitionRefused } from '../../indexing/state-machine';

function feedId(raw: string, res: Response): number | null {
  if (!/^\d+$/.test(raw)) {
    res.status(400).json({
      error: 'BadRequest',
      message: `feed id ${JSON.stringify(raw)} is not a number: use /_sandbox/feeds/{siteId}/{feedId}, e.g. /_sandbox/feeds/demo42/42`,
    });
    return null;
  }
  return Number(raw);
}

/** The domain's refusals as the admin API's statuses. */
function failed(res: Response, err: unknown): void {
  if (err instanceof TransitionRefused) {
    res.status(409).json({
      error: 'TransitionRefused',
      message: err.message,
      from: err.from,
      to: err.to,
      allowed: err.allowed,
    });
  } else if (err instanceof FeedNotFound) {
    res.status(404).json({ error: 'NotFound', message: err.message });
  } else if (err instanceof HandMoveConflict) {
    res.status(409).json({ error: 'Conflict', message: err.message });
  } else if (err instanceof FeedSettingRefused) {
    res.status(400).json({ error: 'BadRequest', message: err.message });
  } else throw err;
}

export function adminFeedsRouter(indexing: IndexingService): Router {
  const router = express.Router();

  mount(router, 'feeds', (_req, res, { siteId }) => res.json({ feeds: indexing.feeds(siteId) }));

  mount(router, 'feed', (req, res) => {
    const id = feedId(req.params.feedId, res);
    if (id === null) return;
    const view = indexing.feed(req.params.siteId, id);
    if (!view)
      return void res
        .status(404)
        .json({ error: 'NotFound', message: `no feed ${req.params.siteId}/${id}` });
    res.json(view);
  });

  mount(router, 'patchFeed', async (req, res) => {
    const id = feedId(req.params.feedId, res);
    if (id === null) return;
    try {
      res.json(await indexing.patch(req.params.siteId, id, parseAdminBody('patchFeed', req.body)));
    } catch (err) {
      failed(res, err);
    }
  });

  mount(router, 'transition', async (req, res) => {
    const id = feedId(req.params.feedId, res);
    if (id === null) return;
    try {
      res.json(
        await indexing.transition(req.params.siteId, id, parseAdminBody('transition', req.body).to),
      );
    } catch (err) {
      failed(res, err);
    }
  });

  mount(router, 'catalog', (req, res, { limit = 100, offset = 0 }) => {
    const siteId = String(req.params.siteId);
    const id = feedId(String(req.params.feedId), res);
    if (id === null) return;
    const page = indexing.catalogPage(siteId, id, offset, limit);
    if (!page)
      return void res.status(404).json({ error: 'NotFound', message: `no feed ${siteId}/${id}` });
    res.json(page);
  });

  return router;
}
