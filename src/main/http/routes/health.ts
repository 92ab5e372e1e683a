// GET /_sandbox/health: liveness and version, for scripts waiting on the sandbox.
import { Router } from 'express';
import type { SandboxCore } from '../../sandbox';

export function healthRouter(core: SandboxCore): Router {
  const router = Router();
  router.get('/health', (_req, res) => {
    res.json({
      status: 'ok',
      version: core.version,
      configSource: core.config.configSource,
      dataDir: core.config.dataDir,
      warnings: core.warnings(),
    });
  });
  return router;
}
