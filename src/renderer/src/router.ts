// Hash routes (`#/timelines/<pageKey>/<eventId>`): deep links survive reloads in the browser and in the
// Electron window alike, with no server routes to keep in step.
import { useMemo, useSyncExternalStore } from 'react';
import { decodeRoutePart, encodeRoutePart } from '../../shared/text';
import { filtersQuery } from './state/filters';

export type Route =
  | { view: 'connect'; siteId: string | null }
  | {
      view: 'timelines';
      pageKey: string | null;
      eventId: string | null;
      /** the finding picked on the page (`?finding=`), so a link can point at one finding */
      findingId?: string | null;
    }
  | { view: 'requests'; eventId: string | null }
  | { view: 'feeds' }
  | { view: 'outbox'; mailId: string | null }
  | { view: 'visits'; visitKey: string | null }
  | { view: 'orders'; eventId: string | null }
  | { view: 'actions' }
  | {
      view: 'compare';
      /** the name of the recording compared (`?recording=`): a file the window read, not kept on reload */
      recording?: string | null;
      siteId?: string;
      sessionId?: string;
    }
  | { view: 'readiness'; siteId: string | null };

function parseRoute(hash: string): Route {
  // `?…` after a route carries the timelines filters (state/filters.ts)
  const parts = hash.split('?')[0]!.replace(/^#\/?/, '').split('/').map(decodeRoutePart);
  const [head, a, b] = parts;
  switch (head) {
    case 'connect':
      return { view: 'connect', siteId: a || null };
    case 'requests':
      return { view: 'requests', eventId: a || null };
    case 'feeds':
      return { view: 'feeds' };
    case 'outbox':
      return { view: 'outbox', mailId: a || null };
    case 'actions':
      return { view: 'actions' };
    case 'compare': {
      const q = new URLSearchParams(hash.split('?')[1] ?? '');
      return {
        view: 'compare',
        recording: q.get('recording'),
        siteId: q.get('siteId') ?? '',
        sessionId: q.get('sessionId') ?? '',
      };
    }
    case 'readiness':
      return { view: 'readiness', siteId: a || null };
    case 'visits':
      return { view: 'visits', visitKey: a || null };
    case 'orders':
      return { view: 'orders', eventId: a || null };
    default: {
      const finding = new URLSearchParams(hash.split('?')[1] ?? '').get('finding');
      return { view: 'timelines', pageKey: a || null, eventId: b || null, findingId: finding };
    }
  }
}

export function routeHref(route: Route): string {
  const enc = encodeRoutePart;
  switch (route.view) {
    case 'timelines': {
      // the filters in force travel with every timelines link, so a copied URL shows the same list
      const query = new URLSearchParams(filtersQuery().slice(1));
      if (route.pageKey && route.findingId) query.set('finding', route.findingId);
      const q = query.toString() ? `?${query.toString()}` : '';
      if (!route.pageKey) return `#/timelines${q}`;
      return `#/timelines/${enc(route.pageKey)}${route.eventId ? `/${enc(route.eventId)}` : ''}${q}`;
    }
    case 'requests':
      return route.eventId ? `#/requests/${enc(route.eventId)}` : '#/requests';
    case 'outbox':
      return route.mailId ? `#/outbox/${enc(route.mailId)}` : '#/outbox';
    case 'visits':
      return route.visitKey ? `#/visits/${enc(route.visitKey)}` : '#/visits';
    case 'orders':
      return route.eventId ? `#/orders/${enc(route.eventId)}` : '#/orders';
    case 'readiness':
      return route.siteId ? `#/readiness/${enc(route.siteId)}` : '#/readiness';
    case 'connect':
      return route.siteId ? `#/connect/${enc(route.siteId)}` : '#/connect';
    case 'compare': {
      const query = new URLSearchParams();
      if (route.recording) query.set('recording', route.recording);
      if (route.siteId) query.set('siteId', route.siteId);
      if (route.sessionId) query.set('sessionId', route.sessionId);
      return query.toString() ? `#/compare?${query.toString()}` : '#/compare';
    }
    default:
      return `#/${route.view}`;
  }
}

export function navigate(route: Route, replace = false): void {
  const href = routeHref(route);
  if (replace) history.replaceState(null, '', href);
  else if (location.hash !== href) location.hash = href;
  // replaceState does not fire hashchange; tell subscribers ourselves.
  if (replace) window.dispatchEvent(new HashChangeEvent('hashchange'));
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => location.hash);
  return useMemo(() => parseRoute(hash), [hash]);
}
