// Accounts and feeds from the config file: validated, with errors naming the key and the fix.
import type { RulesConfig } from '../../shared/timeline';
import { ruleEntryProblem } from '../../shared/rule-levels';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, ConfigProblems } from '../config-error';
import {
  configBool as bool,
  configObject as object,
  configString as str,
  refuseQuotedNumber,
} from '../config-values';
import { parseIsoDuration } from '../durations';
import { shown } from '../../shared/text';
import { SITE_ID_PATTERN } from '../../shared/site-id';
import { didYouMean } from '../../shared/nearest';

export type FeedSource =
  { kind: 'upload' } | { kind: 'cart'; file: string } | { kind: 'cart'; url: string };

export interface FeedConfig {
  id: number;
  name: string;
  /** ms between scheduled indexes, or 'Never' */
  interval: number | 'Never';
  source: FeedSource;
  /** the feed has an external regeneration step (regen_* states) before indexing */
  regeneration: boolean;
  /** true: the scheduler moves the feed through its states; false: only the admin API/UI does */
  autopilot: boolean;
  /** column/field holding the product id; auto-detected (uid, id, product_id, sku) when absent */
  idField: string | null;
}

export interface AccountConfig {
  siteId: string;
  secretKey: string;
  name: string;
  feeds: FeedConfig[];
  /** per-rule severity for this site's timelines; wins over the top-level `rules` */
  rules?: RulesConfig;
}

const DURATION = /^(\d+)\s*(ms|s|m|min|h|d)$/;
const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/**
 * The accounts of a config file. Each area's own settings of an account (search, tracking) are parsed
 * by that area's parser, passed in by the caller (src/main/config.ts), so accounts depend on no domain.
 */
export function parseAccounts<Areas extends object>(
  raw: unknown,
  baseDir: string,
  file: string,
  areas: (account: Record<string, unknown>, key: string, siteId: string) => Areas,
): Array<AccountConfig & Areas> {
  if (raw === undefined) return [];
  if (!Array.isArray(raw))
    throw new ConfigError(
      'accounts',
      'must be an array of accounts, e.g. [{"siteId": "abc123", "secretKey": "…", "feeds": []}]',
      file,
    );
  const seen = new Set<string>();
  // every account and feed is read, and all their problems said at once
  const problems = new ConfigProblems();
  const accounts = raw.map((acc, i) => problems.part(() => parseAccount(acc, i)));
  problems.settle();
  return accounts as Array<AccountConfig & Areas>;

  function parseAccount(acc: unknown, i: number): AccountConfig & Areas {
    const key = `accounts[${i}]`;
    const a = object(acc, key, file, [
      'siteId',
      'secretKey',
      'name',
      'feeds',
      'search',
      'tracking',
      'rules',
      'readiness',
    ]);
    const own = new ConfigProblems();
    const siteId = own.part(() => {
      const id = str(a.siteId, `${key}.siteId`, file);
      if (!SITE_ID_PATTERN.test(id))
        throw new ConfigError(
          `${key}.siteId`,
          `${JSON.stringify(id)} is not a siteId: use 6 lowercase letters or digits, e.g. "abc123"`,
          file,
        );
      if (seen.has(id))
        throw new ConfigError(
          `${key}.siteId`,
          `${id} appears twice; each account needs its own siteId`,
          file,
        );
      seen.add(id);
      return id;
    });
    const secretKey = own.part(() => str(a.secretKey, `${key}.secretKey`, file));
    const name = own.part(() => (a.name === undefined ? siteId : str(a.name, `${key}.name`, file)));
    const feedsRaw = a.feeds ?? [];
    const feeds: FeedConfig[] = [];
    if (!Array.isArray(feedsRaw))
      own.add(new ConfigError(`${key}.feeds`, 'must be an array of feeds', file));
    else {
      const ids = new Set<number>();
      feedsRaw.forEach((f, j) =>
        own.part(() => {
          const feed = parseFeed(f, `${key}.feeds[${j}]`, baseDir, file);
          if (ids.has(feed.id))
            throw new ConfigError(
              `${key}.feeds[${j}].id`,
              `feed id ${feed.id} appears twice in this account`,
              file,
            );
          ids.add(feed.id);
          feeds.push(feed);
        }),
      );
    }
    // its `rules` too: their ids are the rules' own, which the caller knows (accounts know no rule)
    const theirs = own.part(() => areas(a, key, siteId ?? String(a.siteId)));
    own.settle();
    return { siteId: siteId!, secretKey: secretKey!, name: name!, feeds, ...theirs! };
  }
}

function parseFeed(raw: unknown, key: string, baseDir: string, file: string): FeedConfig {
  const f = object(raw, key, file, [
    'id',
    'name',
    'interval',
    'source',
    'regeneration',
    'autopilot',
    'idField',
  ]);
  refuseQuotedNumber(f.id, `${key}.id`, file, 'a feed id is a whole number >= 1');
  if (typeof f.id !== 'number' || !Number.isInteger(f.id) || f.id < 1)
    throw new ConfigError(`${key}.id`, `${JSON.stringify(f.id)} must be a whole number >= 1`, file);
  const interval = parseInterval(f.interval, `${key}.interval`, file);
  return {
    id: f.id,
    name: f.name === undefined ? `Feed ${f.id}` : str(f.name, `${key}.name`, file),
    interval,
    source: parseSource(f.source, `${key}.source`, baseDir, file),
    regeneration:
      f.regeneration === undefined ? false : bool(f.regeneration, `${key}.regeneration`, file),
    autopilot: f.autopilot === undefined ? true : bool(f.autopilot, `${key}.autopilot`, file),
    idField:
      f.idField === undefined || f.idField === null ? null : str(f.idField, `${key}.idField`, file),
  };
}

/**
 * The shortest and longest schedule a feed may have. Shorter, the scheduler would index it again and again
 * within a clock advance; longer, its next index time is past any date (a year holds every real
 * schedule; "Never" is the one without a next time).
 */
export const MIN_INTERVAL_MS = 60_000;
export const MAX_INTERVAL_MS = 366 * 86_400_000;

export function parseInterval(v: unknown, key: string, file: string): number | 'Never' {
  if (v === undefined) return 24 * 3_600_000;
  if (v === 'Never') return 'Never';
  // ISO 8601 too ("PT24H", "P1D"): it is what the clock admin API takes
  const iso = typeof v === 'string' && /^P/i.test(v.trim()) ? parseIsoDuration(v) : null;
  const m = typeof v === 'string' ? DURATION.exec(v.trim()) : null;
  // "0m" and "PT0S" are intervals, too short ones: refused by the range below, which says so
  const ms = iso !== null ? iso : m ? Number(m[1]) * UNIT_MS[m[2]!]! : null;
  if (ms === null)
    throw new ConfigError(
      key,
      `${shown(v)} is not an interval: use "Never" or a duration like "24h", "30m", "7d" (or ISO 8601 "PT24H")`,
      file,
    );
  if (ms < MIN_INTERVAL_MS || ms > MAX_INTERVAL_MS)
    throw new ConfigError(
      key,
      `${shown(v)} is ${ms < MIN_INTERVAL_MS ? 'shorter than a minute' : 'longer than 366 days'}: an interval is 1 minute to 366 days ("30m", "24h", "7d"); use "Never" for a feed with no schedule`,
      file,
    );
  return ms;
}

function parseSource(v: unknown, key: string, baseDir: string, file: string): FeedSource {
  if (v === undefined || v === 'upload') return { kind: 'upload' };
  if (typeof v === 'string')
    throw new ConfigError(
      key,
      `${JSON.stringify(v)} is not a source: ${didYouMean(v, ['upload', 'cart'])}use "upload" (the feed takes a file POSTed as feedFile) or {"kind": "cart", "file": "cart.json"} (a PUT reads it from a file or a loopback "url")`,
      file,
    );
  const s = object(v, key, file, ['kind', 'file', 'url']);
  const kind = s.kind;
  if (kind !== 'upload' && kind !== 'cart')
    throw new ConfigError(
      `${key}.kind`,
      `${shown(kind)} is not a source kind: ${typeof kind === 'string' ? didYouMean(kind, ['upload', 'cart']) : ''}use "upload" (POST feedFile) or "cart" (PUT, read from file or url)`,
      file,
    );
  const given = (['file', 'url'] as const).filter((k) => s[k] !== undefined);
  if (kind === 'upload') {
    if (given.length > 0)
      throw new ConfigError(
        `${key}.${given[0]}`,
        `an "upload" source indexes the file POSTed to it and reads no ${given.join(' or ')}: remove it, or make the source {"kind": "cart", …} to have a PUT read it`,
        file,
      );
    return { kind: 'upload' };
  }
  if (given.length > 1)
    throw new ConfigError(
      key,
      'a "cart" source reads "file" or "url", not both: keep the one the PUT should read',
      file,
    );
  if (typeof s.file === 'string' && s.file) {
    const resolved = path.resolve(baseDir, s.file);
    // caught at start-up rather than at the first PUT: a typo in the path is a config error
    if (!existsSync(resolved) || !statSync(resolved).isFile()) {
      throw new ConfigError(
        `${key}.file`,
        `${resolved} is not a file: the path is relative to the config file's folder`,
        file,
      );
    }
    return { kind: 'cart', file: resolved };
  }
  if (typeof s.url === 'string' && s.url) {
    let u: URL;
    try {
      u = new URL(s.url);
    } catch {
      throw new ConfigError(`${key}.url`, `${JSON.stringify(s.url)} is not a URL`, file);
    }
    if (
      !['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname) ||
      !/^https?:$/.test(u.protocol)
    ) {
      throw new ConfigError(
        `${key}.url`,
        `${s.url} is not on loopback: a cart source URL must be http(s)://127.0.0.1, localhost or [::1]`,
        file,
      );
    }
    return { kind: 'cart', url: u.toString() };
  }
  throw new ConfigError(
    key,
    'a "cart" source needs "file" (a path, relative to the config file) or "url" (http on loopback)',
    file,
  );
}

/** A `rules` map (top level or an account's): rule id → off | info | warning | error. */
export function parseRules(
  raw: unknown,
  key: string,
  file: string,
  ids: readonly string[],
): RulesConfig {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new ConfigError(
      key,
      `must be an object of rule id → level, e.g. {"${ids[0]}": "off"}`,
      file,
    );
  const out: RulesConfig = {};
  for (const [rule, level] of Object.entries(raw)) {
    const problem = ruleEntryProblem(rule, level, ids);
    if (problem) throw new ConfigError(`${key}.${rule}`, problem, file);
    out[rule] = level as RulesConfig[string];
  }
  return out;
}
