// Admin API of feeds: list with sandbox details, PATCH settings and injected faults, hand transitions
// along the table (409 lists the allowed targets), and a look at a feed's indexed catalog.
import express, { type Router } from 'express';
import type { IndexingService } from '../../indexing/service';
import { mount } from '../admin-query';
import { FeedNotFound } from '../../indexing/admin';
import { clipped } from '../../../shared/text';

export function adminFeedsRouter(indexing: IndexingService): Router {
  const router = express.Router();

  // every read shows the feeds as stored (a step the clock took on its own may still be on its way to disk)
  mount(
    router,
    'feeds',
    async (_req, res, { siteId }) => {
      await indexing.stored();
      res.json({ feeds: indexing.feeds(siteId) });
    },
    { bounds: () => ({ sites: indexing.siteIds() }) },
  );

  mount(router, 'feed', async (req, res) => {
    await indexing.stored();
    const { siteId, feedId } = req.params;
    const view = indexing.feed(siteId, feedId);
    if (!view) throw new FeedNotFound(`no feed ${clipped(siteId)}/${feedId}`);
    res.json(view);
  });

  mount(router, 'patchFeed', async (req, res, _query, patch) => {
    res.json(await indexing.patch(req.params.siteId, req.params.feedId, patch));
  });

  mount(router, 'transition', async (req, res, _query, { to }) => {
    res.json(await indexing.transition(req.params.siteId, req.params.feedId, to));
  });

  mount(router, 'catalog', async (req, res, { limit = 100, offset = 0 }) => {
    await indexing.stored();
    const { siteId, feedId } = req.params;
    const page = indexing.catalogPage(siteId, feedId, offset, limit);
    if (!page) throw new FeedNotFound(`no feed ${clipped(siteId)}/${feedId}`);
    res.json(page);
  });

  return router;
}
