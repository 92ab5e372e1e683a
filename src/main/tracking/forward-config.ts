// An account's `tracking` settings: whether (and where) its beacon requests are forwarded to the real
// service after the sandbox answered them. Off unless the config asks; errors name the key and the fix.
import { ConfigError } from '../config-error';
import { configBaseUrl, configObject, configWhole } from '../config-values';

/** beacon.js's default beacon v2 base (`@athoscommerce/beacon`, src/client/runtime.ts BASE_PATH). */
export const REAL_BEACON_BASE = 'https://analytics.athoscommerce.net/beacon/v2';

export interface TrackingConfig {
  /** base URL requests go to as `{forward}/{siteId}/{category}/{event}`; null = not forwarded */
  forward: string | null;
  /** how long to wait for the real service's answer */
  forwardTimeoutMs: number;
  /** requests waiting to be forwarded beyond this many are not sent (and counted) */
  forwardQueue: number;
}

export const DEFAULT_TRACKING_CONFIG: TrackingConfig = {
  forward: null,
  forwardTimeoutMs: 10_000,
  forwardQueue: 1_000,
};

export function parseTrackingConfig(raw: unknown, key: string, file: string): TrackingConfig {
  if (raw === undefined) return { ...DEFAULT_TRACKING_CONFIG };
  const t = configObject(raw, key, file, ['forward', 'forwardTimeoutMs', 'forwardQueue']);
  let forward: string | null = null;
  if (t.forward === true) forward = REAL_BEACON_BASE;
  else if (t.forward !== undefined && t.forward !== false) {
    if (typeof t.forward !== 'string')
      throw new ConfigError(
        `${key}.forward`,
        `${JSON.stringify(t.forward)} must be true (the real service, ${REAL_BEACON_BASE}), false, or a base URL like "http://127.0.0.1:9000/beacon/v2"`,
        file,
      );
    forward = configBaseUrl(t.forward, `${key}.forward`, file, 'http://127.0.0.1:9000/beacon/v2');
  }
  return {
    forward,
    forwardTimeoutMs:
      t.forwardTimeoutMs === undefined
        ? DEFAULT_TRACKING_CONFIG.forwardTimeoutMs
        : configWhole(
            t.forwardTimeoutMs,
            `${key}.forwardTimeoutMs`,
            file,
            100,
            120_000,
            'milliseconds',
          ),
    forwardQueue:
      t.forwardQueue === undefined
        ? DEFAULT_TRACKING_CONFIG.forwardQueue
        : configWhole(t.forwardQueue, `${key}.forwardQueue`, file, 1, 100_000, 'requests'),
  };
}
