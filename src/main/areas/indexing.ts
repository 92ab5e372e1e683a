// The indexing area: feeds on their state machine and scheduler, the catalogs they build and the outbox,
// behind the provider's bulk indexing interface and the admin API's feeds and outbox.
import { IndexingService } from '../indexing/service';
import { indexingRouter } from '../http/routes/indexing';
import { adminFeedsRouter } from '../http/routes/admin-feeds';
import { adminOutboxRouter } from '../http/routes/admin-outbox';
import type { Area } from './area';

export const indexingArea: Area<'indexing'> = {
  name: 'indexing',
  needs: [],
  async open({ config, clock, bus, onClose }) {
    const { service: indexing, warnings } = await IndexingService.open(config, clock, bus);
    onClose(() => indexing.close());
    // a step or schedule measured on a clock that went back would hold a feed for as long as it had moved
    onClose(clock.onChange(() => indexing.clockMoved()));
    return {
      service: indexing,
      warnings,
      routes: (sandbox) => ({
        provider: [indexingRouter(sandbox)],
        admin: [adminFeedsRouter(indexing), adminOutboxRouter(indexing)],
      }),
      prepareReset: async (scope, _importId, resetId) =>
        scope.what === 'all' ? indexing.prepareReset(scope.siteId, resetId) : null,
      reset: (scope) => (scope.what === 'all' ? indexing.refill(scope.siteId) : undefined),
      // feeds (state, history with scorecards, last run) and the outbox, for bug reports; not imported
      exportSection: {
        export: () => ({ feeds: indexing.feeds(), outbox: indexing.outbox.list() }),
      },
    };
  },
};
