// Guards for the admin API and UI: only requests addressed to the sandbox itself (DNS rebinding) and
// not sent by other web pages (CSRF) get through, and no other page may frame them (clickjacking).
// Tracking endpoints stay open to storefront origins.
import type { Request, Response, NextFunction } from 'express';

/**
 * No page may show the UI or an admin answer in a frame: a page that framed the UI could trick a visitor
 * into clicking its buttons (reset every event, in two clicks). The UI never frames itself, so 'none';
 * X-Frame-Options for browsers that predate frame-ancestors. The desktop shell sets the same policy.
 */
export function refuseFraming(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
  res.setHeader('X-Frame-Options', 'DENY');
  next();
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** The Host values the sandbox answers to, for the ports it listens on. */
export function allowedHosts(host: string, ports: number[]): Set<string> {
  const names = new Set(LOOPBACK_NAMES);
  // as given, 0.0.0.0 and [::] too: the ready line prints the host it listens on, and a Host of 0.0.0.0
  // comes only from a browser or script opening that very address, never from a rebound domain
  names.add(host.includes(':') ? `[${host}]` : host);
  const out = new Set<string>();
  for (const name of names) for (const port of ports) out.add(`${name}:${port}`.toLowerCase());
  return out;
}

/**
 * Refuse requests whose Host is not one of the sandbox's own, and whose Origin (when a browser sent one)
 * is not the sandbox's own origin. `hosts()` is read per request because ports are known only after listen.
 */
export function sameOriginGuard(hosts: () => Set<string>) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const allowed = hosts();
    const host = (req.headers.host ?? '').toLowerCase();
    if (!allowed.has(host)) {
      res.status(403).json({
        error: 'ForbiddenHost',
        message: `Host "${req.headers.host ?? ''}" is not this sandbox. The admin API and UI answer only to ${[...allowed].join(', ')} (protection against DNS rebinding). Open the sandbox by its own URL.`,
      });
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== 'null') {
      let originHost = '';
      try {
        originHost = new URL(origin).host.toLowerCase();
      } catch {
        /* unparsable origin is refused below */
      }
      if (!allowed.has(originHost)) {
        res.status(403).json({
          error: 'ForbiddenOrigin',
          message: `Origin "${origin}" may not call the sandbox admin API (protection against requests from other web pages). Call it from the sandbox UI, curl or your test runner.`,
        });
        return;
      }
    } else if (origin === 'null') {
      res.status(403).json({
        error: 'ForbiddenOrigin',
        message: 'Origin "null" (a sandboxed page or file://) may not call the sandbox admin API.',
      });
      return;
    }
    next();
  };
}
