// Beacon forwarding at a glance (accounts[].tracking.forward): where each site's beacons go, and what became
// of them — including the requests a full queue kept from being sent, which are never silent.
import { useEffect, useState } from 'react';
import { admin } from '../api/client';
import type { Health } from '../api/types';

const POLL_MS = 2000;

export function ForwardingStatus() {
  const [stats, setStats] = useState<Health['forwarding'] | null>(null);
  useEffect(() => {
    let cancelled = false;
    const read = () =>
      (admin('health') as Promise<Health>)
        .then((h) => !cancelled && setStats(h.forwarding ?? null))
        .catch(() => undefined);
    void read();
    const timer = setInterval(() => void read(), POLL_MS);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, []);
  if (!stats || stats.sites.length === 0) return null;
  return (
    <section className="card" data-testid="forwarding">
      <header className="card-head">
        <h2>Forwarding to the real service</h2>
      </header>
      <div className="card-body">
        <p className="muted">
          After answering, the sandbox sends each beacon of these sites on unchanged and records the
          real service’s answer on the event (see the inspector).
        </p>
        <ul className="small">
          {stats.sites.map((s) => (
            <li key={s.siteId}>
              <code>{s.siteId}</code> → <code>{s.base}</code>
            </li>
          ))}
        </ul>
        <p data-testid="forwarding-counts">
          {stats.accepted} accepted · {stats.rejected} rejected · {stats.unavailable} without a
          verdict · {stats.queued} waiting · {stats.inFlight} in flight ·{' '}
          <span className={stats.dropped ? 'warn-text' : ''} data-testid="forwarding-dropped">
            {stats.dropped} not sent (queue full)
          </span>
        </p>
      </div>
    </section>
  );
}
