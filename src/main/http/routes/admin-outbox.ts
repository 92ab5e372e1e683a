// Admin API of the outbox: the status e-mails produced for `requestedBy`, newest last, with their
// SMTP delivery state; DELETE empties it.
import express, { type Router } from 'express';
import type { SandboxCore } from '../../core';

export function adminOutboxRouter(core: SandboxCore): Router {
  const router = express.Router();

  router.get('/outbox', (req, res) => {
    const siteId = typeof req.query.siteId === 'string' ? req.query.siteId : undefined;
    const feedId = typeof req.query.feedId === 'string' ? Number(req.query.feedId) : undefined;
    const to = typeof req.query.to === 'string' ? req.query.to.toLowerCase() : undefined;
    const messages = core.indexing.outbox
      .list()
      .filter(
        (m) =>
          (siteId === undefined || m.siteId === siteId) &&
          (feedId === undefined || m.feedId === feedId) &&
          (to === undefined || m.to.toLowerCase() === to),
      );
    res.json({ messages });
  });

  router.delete('/outbox', async (_req, res) => {
    await core.indexing.outbox.clear();
    res.json({ messages: [] });
  });

  return router;
}
