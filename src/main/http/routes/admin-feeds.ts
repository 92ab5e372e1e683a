// Admin API of feeds: list with sandbox details, PATCH settings and injected faults, hand transitions
// along the table (409 lists the allowed targets), and a look at a feed's indexed catalog.
import express, { type Router } from 'express';
import type { IndexingService } from '../../indexing/service';
import { BadQuery, mount } from '../admin-query';
import { FeedNotFound } from '../../indexing/admin';
import { clipped, shown } from '../../../shared/text';

/** The path's feedId as a number; BadQuery naming it (answered 400) when it is not one. */
function feedId(raw: string): number {
  if (!/^\d+$/.test(raw))
    throw new BadQuery(
      'feedId',
      `path parameter feedId ${shown(raw)} is not a number: use /_sandbox/feeds/{siteId}/{feedId}, e.g. /_sandbox/feeds/demo42/42`,
    );
  return Number(raw);
}

export function adminFeedsRouter(indexing: IndexingService): Router {
  const router = express.Router();

  mount(router, 'feeds', (_req, res, { siteId }) => res.json({ feeds: indexing.feeds(siteId) }));

  mount(router, 'feed', (req, res) => {
    const id = feedId(req.params.feedId);
    const view = indexing.feed(req.params.siteId, id);
    if (!view) throw new FeedNotFound(`no feed ${clipped(req.params.siteId)}/${id}`);
    res.json(view);
  });

  mount(router, 'patchFeed', async (req, res, _query, patch) => {
    const id = feedId(req.params.feedId);
    res.json(await indexing.patch(req.params.siteId, id, patch));
  });

  mount(router, 'transition', async (req, res, _query, { to }) => {
    const id = feedId(req.params.feedId);
    res.json(await indexing.transition(req.params.siteId, id, to));
  });

  mount(router, 'catalog', (req, res, { limit = 100, offset = 0 }) => {
    const siteId = String(req.params.siteId);
    const id = feedId(String(req.params.feedId));
    const page = indexing.catalogPage(siteId, id, offset, limit);
    if (!page) throw new FeedNotFound(`no feed ${clipped(siteId)}/${id}`);
    res.json(page);
  });

  return router;
}
