// What each method of the client takes as options, for checkOptions (options.ts): the query parameters
// its endpoint declares (by name, from the declaration) and its own options. events() leaves out `follow`
// (a stream, not a list) and report() `format` (its first argument).
import { ADMIN_API, MAX_WAIT_MS } from '../../shared/admin-api.js';
import { PATCH_FEED_BODY, RESET_BODY } from '../../shared/admin-bodies.js';
import { queryOptions, type MethodOptions } from './options.js';

const own = (...names: string[]) => Object.fromEntries(names.map((n) => [n, null]));
const query = (name: keyof typeof ADMIN_API, only: string[]) =>
  Object.fromEntries(Object.entries(queryOptions(name)).filter(([key]) => only.includes(key)));

export const METHOD_OPTIONS = {
  events: {
    call: 'sandbox.events',
    options: queryOptions('events', ['follow']),
    example: "sandbox.events({ siteId: 'demo42', event: 'render' })",
  },
  waitForEvents: {
    call: 'sandbox.waitForEvents',
    options: queryOptions('wait'),
    example: "sandbox.waitForEvents({ event: 'render', count: 1, timeout: 5000 })",
    words: {
      timeout: `must be a whole number of milliseconds from 0 to ${MAX_WAIT_MS} (default 10000; a longer wait is capped at ${MAX_WAIT_MS})`,
    },
  },
  timelines: {
    call: 'sandbox.timelines',
    options: queryOptions('timelines'),
    example: "sandbox.timelines({ siteId: 'demo42', verdict: 'fail' })",
  },
  visits: {
    call: 'sandbox.visits',
    options: queryOptions('visits'),
    example: "sandbox.visits({ siteId: 'demo42' })",
  },
  orders: {
    call: 'sandbox.orders',
    options: queryOptions('orders'),
    example: "sandbox.orders({ siteId: 'demo42' })",
  },
  ordersSummary: {
    call: 'sandbox.ordersSummary',
    options: queryOptions('ordersSummary'),
    example: "sandbox.ordersSummary({ siteId: 'demo42' })",
  },
  expectClean: {
    call: 'sandbox.expectClean',
    // the timeline filters: every page is judged (no limit), whatever its verdict
    options: {
      ...queryOptions('timelines', ['limit', 'view', 'finished', 'verdict']),
      ...own('failOn', 'rules', 'ignoreRules', 'allowEmpty'),
    },
    example: "sandbox.expectClean({ siteId: 'demo42', failOn: 'warning' })",
  },
  readiness: {
    call: 'sandbox.readiness',
    options: queryOptions('readiness'),
    example: "sandbox.readiness({ siteId: 'demo42' })",
  },
  expectReady: {
    call: 'sandbox.expectReady',
    options: own('siteId', 'expect', 'failOn'),
    example: "sandbox.expectReady({ siteId: 'demo42', expect: ['search'] })",
  },
  expectMatchesBaseline: {
    call: 'sandbox.expectMatchesBaseline',
    options: { ...query('events', ['siteId', 'sessionId']), ...own('dir', 'update', 'ignore') },
    example: "sandbox.expectMatchesBaseline('checkout', { siteId: 'demo42' })",
  },
  report: {
    call: 'sandbox.report',
    options: queryOptions('report', ['format']),
    example: "sandbox.report('junit', { siteId: 'demo42', failOn: 'warning' })",
  },
  reset: {
    call: 'sandbox.reset',
    options: { what: RESET_BODY.properties.what, ...queryOptions('reset') },
    example: "sandbox.reset({ what: 'all' })",
  },
  patchFeed: {
    call: 'sandbox.patchFeed',
    // the sandbox judges the values (its refusal names the field)
    options: own(...Object.keys(PATCH_FEED_BODY.properties)),
    example: "sandbox.patchFeed('demo42', 42, { autopilot: false })",
  },
  searchResponses: {
    call: 'sandbox.searchResponses',
    options: queryOptions('searchResponses'),
    example: "sandbox.searchResponses({ siteId: 'demo42', limit: 10 })",
  },
  outbox: {
    call: 'sandbox.outbox',
    options: queryOptions('outbox'),
    example: "sandbox.outbox({ siteId: 'demo42' })",
  },
} satisfies Record<string, MethodOptions>;
