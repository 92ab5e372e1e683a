// `dev-flag` (info): events sent in production mode (no context.dev: true) into the sandbox.
import { finding, plural, defineRule, type RuleMeta, EVERY_PAGE_KIND } from './types';

const meta: RuleMeta<'page'> = {
  id: 'dev-flag',
  judges: ['page'],
  title: 'Production-mode traffic',
  description: 'Events without context.dev: true (the client ran in production mode).',
  expects: 'Development storefronts send dev: true so the real service keeps them out of reports.',
  appliesTo: EVERY_PAGE_KIND,
  guards: ['mode.development'],
  defaultSeverity: 'info',
  scope: 'session',
  messages: {
    production:
      '{{count}} of the {{accepted}} on this page {{were}} sent in production mode (no context.dev: true). That is right for a live storefront; a development storefront should send dev: true so the real service keeps its events out of reports.',
  },
  fix: "Create the client with { mode: 'development' } while developing; leave it off in production.",
  fixes: {
    production:
      "(development builds only) create the client with new Beacon({ siteId }, { mode: 'development' }).",
  },
  listens: ['request'],
};

export const devFlag = defineRule({
  meta,
  count: (page) => (page.tallies.notDev.count > 0 ? 1 : 0),
  page(page) {
    const { notDev } = page.tallies;
    if (notDev.count === 0) return [];
    return [
      finding(
        meta,
        '',
        {
          messageId: 'production',
          data: {
            count: notDev.count,
            accepted: plural(page.accepted, 'accepted event'),
            were: notDev.count === 1 ? 'was' : 'were',
          },
        },
        notDev.ids,
        { eventCount: notDev.count },
      ),
    ];
  },
});
