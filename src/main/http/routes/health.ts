// GET /_sandbox/health: liveness and version, for scripts waiting on the sandbox.
import { Router } from 'express';
import type { SandboxCore } from '../../core';

export function healthRouter(core: SandboxCore): Router {
  const router = Router();
  router.get('/health', (_req, res) => {
    res.json({
      status: 'ok',
      version: core.version,
      configSource: core.config.configSource,
      dataDir: core.config.dataDir,
      warnings: core.warnings(),
      // beacon forwarding to the real service: where to, and what became of the requests (drops included)
      forwarding: core.forwarding.stats(),
    });
  });
  return router;
}
