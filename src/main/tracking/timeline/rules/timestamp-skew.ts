// `timestamp-skew`: context.timestamp that is not RFC 3339, or far from the time the event was received.
import {
  finding,
  list,
  plural,
  duration,
  defineRule,
  type RuleMeta,
  EVERY_PAGE_KIND,
} from './types';

const meta: RuleMeta<'page'> = {
  id: 'timestamp-skew',
  judges: ['page'],
  title: 'Timestamp wrong or far from receive time',
  description:
    'context.timestamp that is not RFC 3339, or further from the receive time than the configured skew.',
  expects: 'context.timestamp = the time of the event, RFC 3339 (e.g. new Date().toISOString()).',
  appliesTo: EVERY_PAGE_KIND,
  guards: ['identity.context'],
  defaultSeverity: 'warning',
  messages: {
    format:
      '{{count}} {{carry}} a context.timestamp that is not an RFC 3339 date-time ({{events}}), so it cannot be ordered. The spec expects e.g. "2026-11-21T04:00:00.000Z".',
    far: '{{count}} {{carry}} a context.timestamp more than {{skew}} away from the time the sandbox received them (up to {{max}}): {{events}}. The spec expects the time of the event; a fixed, cached or server-side timestamp breaks ordering and reports.',
    // the sandbox clock was moved: the difference counted is the nearer of its clock's and real time's
    farClockMoved:
      "{{count}} {{carry}} a context.timestamp more than {{skew}} away from the time they were received, by the sandbox's moved clock and by real time alike (up to {{max}} from the nearer of the two): {{events}}. The spec expects the time of the event; a fixed, cached or server-side timestamp breaks ordering and reports.",
  },
  fix: 'Set the timestamp when the event happens, from the browser clock, with new Date().toISOString().',
  fixes: {
    format: 'set it with new Date().toISOString() when the event happens.',
    far: "set context.timestamp with new Date().toISOString() at the moment of the event (and check the machine's clock).",
    farClockMoved:
      "set context.timestamp with new Date().toISOString() at the moment of the event, and check the machine's clock: moving the sandbox's clock is not what put these off.",
  },
  listens: ['request'],
};

export const timestampSkew = defineRule({
  meta,
  count: (page) =>
    (page.tallies.badTimestamp.count > 0 ? 1 : 0) + (page.tallies.farTimestamp.count > 0 ? 1 : 0),
  page(page, ctx) {
    const out = [];
    const { badTimestamp, farTimestamp } = page.tallies;
    if (badTimestamp.count > 0) {
      out.push(
        finding(
          meta,
          'format',
          {
            messageId: 'format',
            data: {
              count: plural(badTimestamp.count, 'event'),
              carry: badTimestamp.count === 1 ? 'carries' : 'carry',
              events: list(badTimestamp.ids, 3),
            },
          },
          badTimestamp.ids,
          { eventCount: badTimestamp.count },
        ),
      );
    }
    if (farTimestamp.count > 0) {
      out.push(
        finding(
          meta,
          'far',
          {
            messageId: page.tallies.farWithClockMoved ? 'farClockMoved' : 'far',
            data: {
              count: plural(farTimestamp.count, 'event'),
              carry: farTimestamp.count === 1 ? 'carries' : 'carry',
              skew: duration(ctx.settings.timestampSkewMs),
              max: duration(page.tallies.maxSkewMs),
              events: list(farTimestamp.ids, 3),
            },
          },
          farTimestamp.ids,
          { eventCount: farTimestamp.count },
        ),
      );
    }
    return out;
  },
});
