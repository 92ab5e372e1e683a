// GET /_sandbox/health: liveness, version and whether the data directory takes writes, for scripts waiting on the sandbox; GET /_sandbox/openapi.json.
import { Router } from 'express';
import { mount, sendJsonText } from '../admin-query';
import type { ForwardStats } from '../../../shared/events';
import { openApiText } from '../openapi';

/**
 * What health reports: the version, where the config and data are, the config's sites, start-up warnings,
 * forwarding.
 */
export interface HealthSource {
  version: string;
  config: {
    configSource: string;
    dataDir: string | null;
    accounts: readonly { siteId: string }[];
  };
  warnings(): string[];
  /** why the data directory cannot take a write now, or null */
  storageProblem(): Promise<string | null>;
  forwarding: { stats(): ForwardStats };
}

export function healthRouter(core: HealthSource): Router {
  const router = Router();
  mount(router, 'health', async (_req, res) => {
    // probed on each call: a disk that filled up since the start is what a health check is for
    const problem = await core.storageProblem();
    res.json({
      status: problem ? 'unwritable' : 'ok',
      ...(problem && { problem }),
      version: core.version,
      configSource: core.config.configSource,
      dataDir: core.config.dataDir,
      // in config order: the UI opens its per-site views on the first, a configured site
      sites: core.config.accounts.map((a) => a.siteId),
      warnings: problem ? [problem, ...core.warnings()] : core.warnings(),
      // beacon forwarding to the real service: where to, and what became of the requests (drops included)
      forwarding: core.forwarding.stats(),
    });
  });
  mount(router, 'openapi', (_req, res) => {
    sendJsonText(res, openApiText(core.version));
  });
  return router;
}
