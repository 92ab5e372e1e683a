// `pageurl-not-href` (warning): an event whose context.pageUrl is no absolute URL (empty, a path, a
// host without a scheme).
//
// Why it is certain: the provider's client sends window.location.href at the moment the event is created
// (B getContext: `config.href || window.location.href`), and location.href is always absolute, with its
// scheme. The service accepts any string, so only the traffic shows it. What it exempts: any absolute
// URL, whatever its scheme (a page opened from file: is one); an integration that sets the client's
// `href` option must give it an absolute URL too, so it is judged the same.
import type { RecordedEvent } from '../../../../shared/events';
import type { Page } from '../page';
import { isAbsoluteUrl, pageUrlOf, timeOf } from './utils/request-context';
import { finding, type RuleMeta, EVERY_PAGE_KIND, defineRule } from './types';
import type { TallyMark } from '../model';
import { tallySlot } from './utils/tally-slot';

const meta: RuleMeta<'page'> = {
  id: 'pageurl-not-href',
  judges: ['page'],
  title: 'pageUrl is not the page’s href',
  description:
    'An event whose context.pageUrl is no absolute URL: the provider’s client sends window.location.href, which always is one.',
  expects: 'context.pageUrl is window.location.href when the event is created: an absolute URL.',
  appliesTo: EVERY_PAGE_KIND,
  guards: ['identity.page-url'],
  defaultSeverity: 'warning',
  messages: {
    notHref:
      '{{event}} carries pageUrl "{{pageUrl}}", which is no absolute URL. The provider\'s client sends window.location.href when the event is created, always with its scheme and host, so the provider cannot tell which page of the site sent it (reports by page, the redirect and landing-page analysis).',
  },
  fix: 'Leave context.pageUrl to the provider’s client (window.location.href); if you set its `href` option, give it the full URL.',
  listens: ['request'],
};

/** the first accepted event whose pageUrl is no absolute URL */
const notHref = tallySlot<TallyMark>();

function tally(page: Page, rec: RecordedEvent): boolean {
  if (!rec.accepted || notHref.of(page)) return false;
  const url = pageUrlOf(rec);
  if (url === null || isAbsoluteUrl(url)) return false;
  notHref.make(page, () => ({ id: rec.id, time: timeOf(rec), value: url }));
  return true;
}

export const pageUrlNotHref = defineRule({
  meta,
  tally,
  count: (page) => (notHref.of(page) ? 1 : 0),
  page(page) {
    const m = notHref.of(page);
    if (!m) return [];
    return [
      finding(meta, 'notHref', { messageId: 'notHref', data: { event: m.id, pageUrl: m.value } }, [
        m.id,
      ]),
    ];
  },
});
