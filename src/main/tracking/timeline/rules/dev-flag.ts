// `dev-flag` (info): events sent in production mode (no context.dev: true) into the sandbox.
import { finding, plural, type PageRule } from './types';

export const devFlag: PageRule = {
  id: 'dev-flag',
  scope: 'page',
  severity: 'info',
  count: (page) => (page.tallies.notDev.count > 0 ? 1 : 0),
  check(page) {
    const { notDev } = page.tallies;
    if (notDev.count === 0) return [];
    return [
      finding(
        'dev-flag',
        'info',
        '',
        `${notDev.count} of the ${plural(page.accepted, 'accepted event')} on this page ${notDev.count === 1 ? 'was' : 'were'} sent in production mode (no context.dev: true). ` +
          `That is right for a live storefront; a development storefront should send dev: true so the real service keeps its events out of reports. ` +
          `Fix (development builds only): create the client with new Beacon({ siteId }, { mode: 'development' }).`,
        notDev.ids,
        { eventCount: notDev.count },
      ),
    ];
  },
};
