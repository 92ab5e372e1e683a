// `attribution-not-read` (warning): an event created at a URL whose `athos_attribution` (or
// `ss_attribution`) parameter names an attribution, sent without context.attribution.
//
// Why it is certain: the provider's client builds every event's context with `attribution:
// this.attribution || this.getAttribution()` (B getContext). Without one kept on the instance, getAttribution
// reads the parameter from the same href the event's pageUrl is taken from (`config.href ||
// window.location.href`), decodes it, splits it at ':' and, when both the type and the id are set, adds
// {type, id} to what it stored and returns it; with one kept, it sends that. Either way the event carries
// a non-empty attribution. What it exempts: a parameter the client itself ignores (empty, no ':', an empty
// type or id, one decodeURIComponent cannot decode), the parameter in the fragment (not a search parameter),
// a pageUrl that is no URL (pageurl-not-href's), and events the service rejected. An event created after an
// attributed one of its visit that lacks it is attribution-lost's first: this finding follows from that one.
import type { RecordedEvent } from '../../../../shared/events';
import type { Page } from '../page';
import { attributionOf, pageUrlOf, timeOf } from './utils/request-context';
import { finding, type RuleMeta, EVERY_PAGE_KIND, defineRule } from './types';
import type { TallyMark } from '../model';
import { tallySlot } from './utils/tally-slot';

const meta: RuleMeta<'page'> = {
  id: 'attribution-not-read',
  judges: ['page'],
  title: 'Attribution in the URL, not on the event',
  description:
    'An event created at a URL whose athos_attribution (or ss_attribution) parameter names a type and an id (type:id), sent without context.attribution: the provider’s client reads that parameter for every event it creates. Not a parameter the client ignores (no type or no id, undecodable) nor one in the URL’s fragment.',
  expects:
    'context.attribution [{type, id}] on every event whose page URL carries athos_attribution=type:id.',
  appliesTo: EVERY_PAGE_KIND,
  guards: ['identity.attribution'],
  // an event after an attributed one of the visit, without it, is the attribution the client kept, lost
  explainedBy: ['attribution-lost'],
  defaultSeverity: 'warning',
  messages: {
    notRead:
      '{{event}} was created at a URL whose {{param}} parameter is "{{value}}", yet it carries no context.attribution. The provider\'s client reads that parameter whenever it creates an event and sends it as context.attribution [{type: "{{type}}", id: "{{id}}"}], then keeps it for the session, so what this shopper does after landing from the e-mail or campaign is credited to it; sent without it, none of it is.',
  },
  fix: 'Let the provider’s client build the event’s context (it reads athos_attribution from the page URL by itself); when you build the context yourself, send context.attribution [{type, id}] from the URL’s athos_attribution=type:id.',
  listens: ['request'],
};

interface Named {
  /** the parameter read: athos_attribution, else ss_attribution */
  param: string;
  /** its value as the URL gives it */
  raw: string;
  attrType: string;
  attrId: string;
}

/** The attribution the client reads from `url` (B getAttribution), when it reads one. */
function attributionInUrl(url: string): Named | undefined {
  // every accepted event comes here: a URL without the word (however its name is encoded) is not parsed
  if (!url.includes('attribution')) return undefined;
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return undefined;
  }
  const primary = params.get('athos_attribution');
  const param = primary ? 'athos_attribution' : 'ss_attribution';
  const value = primary || params.get('ss_attribution');
  if (!value) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return undefined;
  }
  const [type, id] = decoded.split(':');
  return type && id ? { param, raw: value, attrType: type, attrId: id } : undefined;
}

function carries(attribution: unknown): boolean {
  return Array.isArray(attribution) && attribution.length > 0;
}

/** the first accepted event at an attributed URL that carried no attribution */
const notRead = tallySlot<TallyMark & Named>();

function tally(page: Page, rec: RecordedEvent): boolean {
  if (!rec.accepted || notRead.of(page) || carries(attributionOf(rec))) return false;
  const url = pageUrlOf(rec);
  const named = url === null ? undefined : attributionInUrl(url);
  if (!named) return false;
  notRead.make(page, () => ({ id: rec.id, time: timeOf(rec), value: url!, ...named }));
  return true;
}

export const attributionNotRead = defineRule({
  meta,
  tally,
  count: (page) => (notRead.of(page) ? 1 : 0),
  page(page) {
    const m = notRead.of(page);
    if (!m) return [];
    const data = { event: m.id, param: m.param, value: m.raw, type: m.attrType, id: m.attrId };
    return [finding(meta, 'notRead', { messageId: 'notRead', data }, [m.id])];
  },
});
