// Admin API of the outbox: the status e-mails produced for `requestedBy`, newest last, with their
// SMTP delivery state; DELETE empties it.
import express, { type Router } from 'express';
import type { Outbox } from '../../indexing/outbox';
import { mount } from '../admin-query';

export function adminOutboxRouter(outbox: Outbox): Router {
  const router = express.Router();

  mount(router, 'outbox', (_req, res, { siteId, feedId, to: address }) => {
    const to = address?.toLowerCase();
    const messages = outbox
      .list()
      .filter(
        (m) =>
          (siteId === undefined || m.siteId === siteId) &&
          (feedId === undefined || m.feedId === feedId) &&
          (to === undefined || m.to.toLowerCase() === to),
      );
    res.json({ messages });
  });

  mount(router, 'clearOutbox', async (_req, res) => {
    await outbox.clear();
    res.json({ messages: [] });
  });

  return router;
}
