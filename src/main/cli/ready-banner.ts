// What `serve` tells a person once it is ready (on stderr, after the one machine-read line on stdout):
// where the UI is, what to paste into a storefront and an indexing client, where the data goes, how to stop.
import type { SandboxConfig } from '../config';

export interface BannerInput {
  config: Pick<SandboxConfig, 'accounts' | 'configSource' | 'dataDir' | 'host'>;
  /** http://host:port of the sandbox */
  url: string;
  httpsUrl: string | null;
  /** where the self-signed certificate is kept, when HTTPS is on and there is a data dir */
  certPath: string | null;
  /** start-up problems that did not stop it (torn journal lines, a feed whose catalog was moved away) */
  warnings: readonly string[];
}

/** The lines of the banner, without a trailing newline; labels aligned so the values read as a column. */
export function readyBanner(input: BannerInput): string {
  const { config, url, httpsUrl, certPath, warnings } = input;
  const rows: Array<[string, string]> = [['UI', `${url}/`]];
  rows.push(['tracking', `${url}/beacon/v2  (beacon.js: requesters.beacon.origin)`]);
  rows.push(['indexing', `${url}/api/index/{status,feed}  (HTTP basic auth: siteId / secret key)`]);
  const demo = config.configSource === 'demo fixtures';
  for (const account of config.accounts) {
    const feeds = account.feeds.map((f) => f.id).join(', ') || 'none';
    // the demo's key is public (README, fixtures); a user's own keys are never printed
    const key = demo ? `secret key ${account.secretKey}` : `secret key from ${config.configSource}`;
    rows.push(['', `siteId ${account.siteId}, ${key}, feeds ${feeds}`]);
  }
  if (httpsUrl)
    rows.push([
      'https',
      `${httpsUrl}  (self-signed certificate${certPath ? `: ${certPath}` : ', in memory'})`,
    ]);
  rows.push(['config', demo ? 'demo fixtures (fixtures/demo.config.json)' : config.configSource]);
  rows.push(['data', config.dataDir ?? 'ephemeral (kept in memory, gone when the sandbox stops)']);
  if (!isLoopback(config.host))
    rows.push([
      'warning',
      `listening on ${config.host === '0.0.0.0' || config.host === '::' ? `every interface (${config.host})` : config.host}: reachable from the network: anyone who can reach this machine can send it requests, and the admin API, which has no authentication, hands the recorded events (shoppers' user, session and cart ids) to any script; --host 127.0.0.1 keeps it to this machine`,
    ]);
  for (const warning of warnings) rows.push(['warning', warning]);
  rows.push(['stop', 'Ctrl-C (or SIGTERM): answers what it accepted, flushes, exits']);
  const width = Math.max(...rows.map(([label]) => label.length));
  return [
    'search-sandbox is ready',
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
  ].join('\n');
}

/** Only this machine can reach it: 127.0.0.0/8, ::1 or localhost. */
function isLoopback(host: string): boolean {
  return /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1' || host === 'localhost';
}

/**
 * The origin a listener is on, with the host as the sandbox listens on it (the ready line's `HOST`):
 * `http://0.0.0.0:4545` for every interface, `http://[::1]:4545` for IPv6.
 */
export function listenOrigin(scheme: 'http' | 'https', host: string, port: number): string {
  return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
