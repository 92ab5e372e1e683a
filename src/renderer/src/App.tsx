// The shell: top bar (navigation, sandbox clock, connection), a banner while the live stream is down,
// and the current screen. The store starts once here and lives as long as the window.
import { useEffect, useMemo } from 'react';
import { ClockButton } from './components/ClockControl';
import { useTick } from './components/common';
import { fmtClock, fmtDuration } from './format';
import { navigate, routeHref, useRoute, type Route } from './router';
import { ErrorBoundary } from './components/ErrorBoundary';
import { store, useSandbox } from './state/store';
import { useFilters } from './state/filters';
import { ActionsView } from './views/ActionsView';
import { ConnectView } from './views/ConnectView';
import { FeedBoard } from './views/FeedBoard';
import { OutboxView } from './views/OutboxView';
import { RequestsView } from './views/RequestsView';
import { TimelinesView } from './views/TimelinesView';
import { VisitsView } from './views/VisitsView';
import { OrdersView } from './views/OrdersView';
import { CompareView } from './views/CompareView';
import { ReadinessView } from './views/ReadinessView';

function Connection() {
  const c = useSandbox((s) => s.connection);
  const label =
    c.state === 'live' ? 'Live' : c.state === 'connecting' ? 'Connecting…' : 'Disconnected';
  return (
    <span
      className="conn"
      data-state={c.state}
      data-testid="connection"
      role="status"
      aria-label={`Live updates: ${label}`}
      title={`Live updates: ${label}`}
    >
      <span className="dot" aria-hidden="true" />
      <span className="conn-label">{label}</span>
    </span>
  );
}

function DisconnectedBanner() {
  const c = useSandbox((s) => s.connection);
  const now = useTick(1000);
  if (c.state !== 'disconnected') return null;
  const retryIn = Math.max(0, c.retryAt - now);
  return (
    <div className="banner" role="alert" data-testid="disconnected-banner">
      <span>
        <strong>Lost the connection to the sandbox</strong> at{' '}
        {/* in UTC, 24-hour, as every time the UI shows */}
        {fmtClock(c.since)} UTC ({fmtDuration(now - c.since)} ago). What you see may be out of date;
        reconnecting{retryIn > 0 ? ` in ${Math.ceil(retryIn / 1000)} s` : '…'} (attempt {c.attempt}
        ).
      </span>
      <button type="button" className="btn small" onClick={() => store.retryNow()}>
        Retry now
      </button>
    </div>
  );
}

function NavLink(props: {
  to: Route;
  current: Route;
  children: string;
  count?: number;
  countLabel?: string;
  tone?: string;
  testId: string;
}) {
  const { to, current, children, count, countLabel, tone = '', testId } = props;
  return (
    <a
      href={routeHref(to)}
      aria-current={current.view === to.view ? 'page' : undefined}
      data-testid={testId}
      // the counter sits in the corner, so its appearing does not shift the navigation
      className={count !== undefined ? 'counted' : undefined}
    >
      {children}
      {count !== undefined && count > 0 && (
        <span className={`count ${tone}`} title={countLabel}>
          {count > 999 ? '999+' : count}
          <span className="visually-hidden"> {countLabel}</span>
        </span>
      )}
    </a>
  );
}

function TopBar({ route }: { route: Route }) {
  const health = useSandbox((s) => s.health);
  const summaries = useSandbox((s) => s.pages.summaries);
  const failing = useMemo(() => {
    let n = 0;
    for (const p of summaries.values()) if (p.verdict === 'fail') n += 1;
    return n;
  }, [summaries]);
  const outbox = useSandbox((s) => s.outbox.length);
  // the links back to the timelines carry the list's filters, so they follow every change of them
  useFilters();
  return (
    <header className="topbar">
      <a
        className="brand"
        href={routeHref({ view: 'timelines', pageKey: null, eventId: null })}
        aria-label="Search Sandbox: timelines"
      >
        <span className="brand-mark" aria-hidden="true" />
        <strong>Search Sandbox</strong>
        <span className="version" data-testid="version">
          {health ? `v${health.version}` : ''}
        </span>
      </a>
      <nav className="nav" aria-label="Screens">
        <NavLink
          to={{ view: 'timelines', pageKey: null, eventId: null }}
          current={route}
          count={failing}
          countLabel="failing pages"
          tone="fail"
          testId="nav-timelines"
        >
          Timelines
        </NavLink>
        <NavLink to={{ view: 'visits', visitKey: null }} current={route} testId="nav-visits">
          Visits
        </NavLink>
        <NavLink to={{ view: 'orders', eventId: null }} current={route} testId="nav-orders">
          Orders
        </NavLink>
        <NavLink to={{ view: 'requests', eventId: null }} current={route} testId="nav-requests">
          Requests
        </NavLink>
        <NavLink to={{ view: 'feeds' }} current={route} testId="nav-feeds">
          Feeds
        </NavLink>
        <NavLink
          to={{ view: 'outbox', mailId: null }}
          current={route}
          count={outbox}
          countLabel="e-mails"
          testId="nav-outbox"
        >
          Outbox
        </NavLink>
        <NavLink to={{ view: 'readiness', siteId: null }} current={route} testId="nav-readiness">
          Readiness
        </NavLink>
        <NavLink to={{ view: 'compare' }} current={route} testId="nav-compare">
          Compare
        </NavLink>
        <NavLink to={{ view: 'connect', siteId: null }} current={route} testId="nav-connect">
          Connect
        </NavLink>
        <NavLink to={{ view: 'actions' }} current={route} testId="nav-actions">
          Actions
        </NavLink>
      </nav>
      <div className="topbar-right">
        <ClockButton />
        <Connection />
      </div>
    </header>
  );
}

function Screen({ route }: { route: Route }) {
  switch (route.view) {
    case 'connect':
      return <ConnectView siteId={route.siteId} />;
    case 'requests':
      return <RequestsView eventId={route.eventId} />;
    case 'feeds':
      return <FeedBoard />;
    case 'outbox':
      return <OutboxView mailId={route.mailId} />;
    case 'actions':
      return <ActionsView />;
    case 'compare':
      return (
        <CompareView
          recording={route.recording ?? null}
          siteId={route.siteId ?? ''}
          sessionId={route.sessionId ?? ''}
        />
      );
    case 'visits':
      return <VisitsView visitKey={route.visitKey} />;
    case 'orders':
      return <OrdersView eventId={route.eventId} />;
    case 'readiness':
      return <ReadinessView siteId={route.siteId} />;
    case 'timelines':
      return (
        <TimelinesView
          pageKey={route.pageKey}
          eventId={route.eventId}
          findingId={route.findingId ?? null}
        />
      );
  }
}

export function App() {
  const route = useRoute();
  const eventsLoaded = useSandbox((s) => s.load.events.phase === 'ready');
  const eventCount = useSandbox((s) => s.events.length);

  useEffect(() => {
    store.start();
    return () => store.stop();
  }, []);

  // First run: a sandbox that has never seen an event opens on Connect instead of an empty list.
  useEffect(() => {
    if (eventsLoaded && eventCount === 0 && location.hash === '')
      navigate({ view: 'connect', siteId: null }, true);
  }, [eventsLoaded, eventCount]);

  return (
    <div className="app">
      {/* not href="#main": the hash is the router's */}
      <button
        type="button"
        className="skip-link btn"
        onClick={() => document.getElementById('main')?.focus()}
      >
        Skip to content
      </button>
      <TopBar route={route} />
      <main className="main" id="main" tabIndex={-1}>
        <DisconnectedBanner />
        <ErrorBoundary key={route.view} what={`the ${route.view} screen`}>
          <Screen route={route} />
        </ErrorBoundary>
      </main>
    </div>
  );
}
