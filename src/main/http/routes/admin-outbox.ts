// Admin API of the outbox: the status e-mails produced for `requestedBy`, newest last, with their
// SMTP delivery state; DELETE empties it.
import express, { type Router } from 'express';
import type { IndexingService } from '../../indexing/service';
import { mount } from '../admin-query';

export function adminOutboxRouter(indexing: IndexingService): Router {
  const router = express.Router();

  // a siteId no account has is a 404 naming the configured sites, as the feeds list answers it
  mount(
    router,
    'outbox',
    (_req, res, filter) => res.json({ messages: indexing.messages(filter) }),
    {
      bounds: () => ({ sites: indexing.siteIds() }),
    },
  );

  mount(router, 'clearOutbox', async (_req, res) => {
    await indexing.outbox.clear();
    res.json({ messages: [] });
  });

  return router;
}
