// The timelines' settings (`timelines` in the config file): the area owns its type, its defaults and
// the reading of its part of the config; src/main/config.ts only composes it.
import { ConfigError } from '../config-error';
import { refuseQuotedNumber, unknownKey } from '../config-values';

export interface TimelineSettings {
  /** a page that rendered results but sent no impression for this long (sandbox clock) gets `no-impression` */
  noImpressionIdleMs: number;
  /** a context.timestamp further than this from receive time gets `timestamp-skew` */
  timestampSkewMs: number;
  /** events whose timestamps are this close are treated as simultaneous (client clock jitter, batching) */
  orderToleranceMs: number;
}

export function defaultTimelineSettings(): TimelineSettings {
  return { noImpressionIdleMs: 30_000, timestampSkewMs: 5 * 60_000, orderToleranceMs: 1_000 };
}

export function parseTimelineSettings(raw: unknown, file: string): TimelineSettings {
  const out = defaultTimelineSettings();
  if (raw === undefined) return out;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new ConfigError('timelines', 'must be an object', file);
  for (const [k, v] of Object.entries(raw)) {
    if (!(k in out)) throw unknownKey('timelines', k, Object.keys(out), file);
    refuseQuotedNumber(v, `timelines.${k}`, file, 'a number of milliseconds >= 0');
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
      throw new ConfigError(
        `timelines.${k}`,
        `${JSON.stringify(v)} must be a number of milliseconds >= 0`,
        file,
      );
    out[k as keyof TimelineSettings] = v;
  }
  return out;
}
