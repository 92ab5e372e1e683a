// Sandbox configuration: defaults < config file < environment (SEARCH_SANDBOX_*) < flags, validated,
// with errors that name the key, the value and the fix.
import { readFileSync, existsSync } from 'node:fs';
import { shownAsWritten, writtenProblem, type WrittenProblem } from './base/json-written';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, ConfigProblems } from './config-error';
import { parseAccounts, parseRules, type AccountConfig } from './accounts/config';
import { RULE_IDS } from './tracking/timeline/rule-list';
import { parseSearchConfig, type SearchConfig } from './search/config';
import { parseTrackingConfig, type TrackingConfig } from './tracking/forward-config';
import { parseReadinessConfig, type ReadinessConfig } from './tracking/timeline/readiness-config';
import {
  defaultTimelineSettings,
  parseTimelineSettings,
  type TimelineSettings,
} from './tracking/timeline-settings';
import type { SmtpConfig } from './indexing/outbox';

/** `accounts` of a config file, each with its search and tracking settings parsed by their areas. */
export function parseSandboxAccounts(
  raw: unknown,
  baseDir: string,
  file: string,
): SandboxAccount[] {
  return parseAccounts(raw, baseDir, file, (a, key, siteId) => {
    // each area read whatever another said, so that all of an account's problems are said at once
    const problems = new ConfigProblems();
    const search = problems.part(() => parseSearchConfig(a.search, `${key}.search`, file, siteId));
    const tracking = problems.part(() => parseTrackingConfig(a.tracking, `${key}.tracking`, file));
    const readiness = problems.part(() =>
      parseReadinessConfig(a.readiness, `${key}.readiness`, file),
    );
    const rules = problems.part(() =>
      a.rules === undefined ? undefined : parseRules(a.rules, `${key}.rules`, file, RULE_IDS),
    );
    problems.settle();
    return {
      search: search!,
      tracking: tracking!,
      readiness: readiness!,
      ...(rules !== undefined && { rules }),
    };
  });
}

/** An account with every area's settings: the config's own (accounts/config.ts), search's, tracking's. */
export type SandboxAccount = AccountConfig & {
  /** companion search API and merchandising (src/main/search/config.ts) */
  search: SearchConfig;
  /** beacon forwarding to the real service (src/main/tracking/forward-config.ts) */
  tracking: TrackingConfig;
  /** what the site means to implement, for the readiness gate (src/main/tracking/timeline/readiness-config.ts) */
  readiness: ReadinessConfig;
};
import type { RulesConfig } from '../shared/timeline';
import { didYouMean } from '../shared/nearest';
import { jsonPlace } from '../shared/json-place';
import { configString, refuseQuotedNumber, unknownKey } from './config-values';

export { ConfigError, defaultTimelineSettings };
export type { SmtpConfig, TimelineSettings };

export interface SandboxConfig {
  host: string;
  port: number;
  httpsPort: number | null;
  /** null: keep everything in memory (`--ephemeral`) */
  dataDir: string | null;
  retention: { events: number };
  timelines: TimelineSettings;
  /** order-line credit (README, "Credit"): the attribution window */
  attribution: { windowHours: number };
  /** per-rule severity (README, "… tune strictness"); accounts[].rules win for their site */
  rules: RulesConfig;
  accounts: SandboxAccount[];
  smtp: SmtpConfig | null;
  /** where the config came from, for the UI and errors ('demo fixtures' or a file path) */
  configSource: string;
}

/** Flags and environment as given, before validation; undefined = not given. */
export interface ConfigOverrides {
  port?: string | number;
  host?: string;
  httpsPort?: string | number;
  data?: string;
  ephemeral?: boolean;
  config?: string;
  /** how the person who gave these names them, for errors (default: the CLI's flags) */
  names?: OverrideNames;
}

/** What each override is called where it was given: a flag of `serve`, or an option of `startSandbox`. */
export type OverrideNames = Record<'port' | 'host' | 'httpsPort' | 'data' | 'config', string>;

export const FLAG_NAMES: OverrideNames = {
  port: '--port',
  host: '--host',
  httpsPort: '--https-port',
  data: '--data',
  config: '--config',
};

export const DEFAULT_PORT = 4545;
export const CONFIG_FILE_NAME = 'search-sandbox.config.json';
export const DEMO_CONFIG_PATH = path.resolve(__dirname_of(), '../../fixtures/demo.config.json');

function __dirname_of(): string {
  // Works from src/main (tsx/vitest) and from out/main (built): both sit two levels below the project root.
  return path.dirname(fileURLToPath(import.meta.url));
}

const TOP_LEVEL_KEYS = [
  '$schema',
  'port',
  'host',
  'httpsPort',
  'dataDir',
  'retention',
  'timelines',
  'attribution',
  'rules',
  'accounts',
  'smtp',
];
/** the keys a user writes ($schema is an editor's) */
const KNOWN_TOP_LEVEL = TOP_LEVEL_KEYS.filter((k) => k !== '$schema');

/** Read and validate a config file (JSON). Throws ConfigError naming the file and key. */
export function readConfigFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(
      '',
      `cannot read config file (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      file,
    );
  }
  // a UTF-8 byte order mark (Notepad and other Windows editors write one) is no part of the JSON
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    const { why, line, column, cutOff, trailingComma } = jsonPlace(text, (err as Error).message);
    if (trailingComma)
      throw new ConfigError(
        '',
        `not valid JSON at line ${trailingComma.line}, column ${trailingComma.column}: a comma after the last entry (JSON allows none before a } or ]); delete it`,
        file,
      );
    if (cutOff)
      throw new ConfigError('', 'not valid JSON: it ends before its last } (cut off?)', file);
    throw new ConfigError(
      '',
      line === undefined
        ? `not valid JSON (${why})`
        : `not valid JSON at line ${line}, column ${column} (${why}): a missing comma or quote, or a comma after the last entry, is the usual cause`,
      file,
    );
  }
  refuseWrittenProblem(text, file);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError(
      '',
      'the config file must hold a JSON object, e.g. {"accounts": [...]}',
      file,
    );
  }
  return raw as Record<string, unknown>;
}

/** A key given twice or a number too large to be one: what JSON.parse takes silently, refused by name. */
function refuseWrittenProblem(text: string, file: string): void {
  let problem: WrittenProblem | null;
  try {
    problem = writtenProblem(text);
  } catch {
    return; // nested deeper than the scan goes: the checks of each key still hold
  }
  if (problem?.kind === 'duplicate')
    throw new ConfigError(
      problem.path,
      `is given twice, as ${shownAsWritten(problem.first)} and as ${shownAsWritten(problem.second)}: JSON keeps only the last one, so delete the one you do not mean`,
      file,
    );
  if (problem?.kind === 'not-finite')
    throw new ConfigError(
      problem.path,
      `${problem.literal} is not a finite number (it reads as ${String(problem.reads)}): write a number between -1.7e308 and 1.7e308, within what this key takes`,
      file,
    );
}

/**
 * Build the effective config. `cwd` is where `search-sandbox.config.json` is looked for; without a
 * config file the demo fixtures are used.
 */
export function loadConfig(
  flags: ConfigOverrides = {},
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): SandboxConfig {
  const fromEnv = envOverrides(env);
  refuseEmpty(flags);
  const configPath =
    flags.config ??
    fromEnv.config ??
    (existsSync(path.join(cwd, CONFIG_FILE_NAME)) ? path.join(cwd, CONFIG_FILE_NAME) : undefined);
  const file = configPath ? path.resolve(cwd, configPath) : DEMO_CONFIG_PATH;
  const source = configPath ? file : 'demo fixtures';
  if (flags.config !== undefined && fromEnv.config !== undefined)
    checkOverriddenConfig(path.resolve(cwd, fromEnv.config), (flags.names ?? FLAG_NAMES).config);
  const raw = readConfigFile(file);
  return buildConfig(raw, file, path.dirname(file), source, fromEnv, flags, cwd, env);
}

/**
 * SEARCH_SANDBOX_CONFIG when a flag (or option) names another file: every layer is checked, so the file
 * it names must be a config file that can be read (not one that is missing or not JSON), though its values
 * are not used; the error says which layer overrides it.
 */
function checkOverriddenConfig(file: string, flag: string): void {
  try {
    readConfigFile(file);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    throw new ConfigError(
      'SEARCH_SANDBOX_CONFIG',
      `${file}: ${err.key ? `${err.key}: ` : ''}${err.reason} (${flag} overrides it, but every layer is checked: fix it, or unset SEARCH_SANDBOX_CONFIG)`,
      'environment',
    );
  }
}

/**
 * A config file checked as `serve` checks it (unknown keys, every value), without the environment or
 * flags: what `check --config` reads its rules and accounts from. Relative paths resolve against `cwd`.
 */
export function loadConfigFile(file: string, cwd: string = process.cwd()): SandboxConfig {
  const resolved = path.resolve(cwd, file);
  const raw = readConfigFile(file);
  return buildConfig(raw, file, path.dirname(resolved), resolved, {}, {}, cwd, {});
}

/**
 * Build the effective config from an object instead of a file (the programmatic API's `config`
 * option); relative paths in it resolve against `cwd`. Environment and flags apply as for a file.
 */
export function configFromObject(
  raw: unknown,
  flags: ConfigOverrides = {},
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): SandboxConfig {
  const label = 'config option';
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new ConfigError('', 'must be an object like {"accounts": [...]}', label);
  refuseEmpty(flags);
  return buildConfig(
    raw as Record<string, unknown>,
    label,
    cwd,
    label,
    envOverrides(env),
    flags,
    cwd,
    env,
  );
}

/** Flags (or the API's options) given as '': refused as the CLI refuses `--data ''`, never "not given". */
function refuseEmpty(flags: ConfigOverrides): void {
  const names = flags.names ?? FLAG_NAMES;
  for (const [key, flag] of Object.entries(names))
    if (flags[key as keyof OverrideNames] === '')
      throw new ConfigError(flag, 'is empty: give a value, or leave it out');
}

/** What to set each variable to, for the error when it is set but empty. */
const ENV_VALUES: Record<string, string> = {
  SEARCH_SANDBOX_PORT: 'a port (4545; 0 picks a free one)',
  SEARCH_SANDBOX_HOST: 'an address to listen on (127.0.0.1)',
  SEARCH_SANDBOX_HTTPS_PORT: 'a port for HTTPS (4546; 0 picks a free one)',
  SEARCH_SANDBOX_DATA: 'a directory',
  SEARCH_SANDBOX_EPHEMERAL: 'true or false',
  SEARCH_SANDBOX_CONFIG: 'a config file',
  SEARCH_SANDBOX_RETENTION: 'a number of events (100000)',
};

/**
 * A SEARCH_SANDBOX_* variable as set; undefined when unset. Set but empty (`SEARCH_SANDBOX_DATA=`, a
 * script's variable that was never filled) is refused: taken as unset, the sandbox would run with a
 * default the user did not choose (a data directory in the package's own folder).
 */
export function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  if (value !== '') return value;
  throw new ConfigError(
    name,
    `is set but empty: set it to ${ENV_VALUES[name] ?? 'a value'}, or unset it (unset ${name})`,
    'environment',
  );
}

/** How a variable says yes or no (SEARCH_SANDBOX_EPHEMERAL). */
const YES = /^(1|true|yes|on)$/i;
const NO = /^(0|false|no|off)$/i;

/** SEARCH_SANDBOX_EPHEMERAL asks for memory only (a value that is not a boolean is loadConfig's to refuse). */
export function envSaysEphemeral(env: NodeJS.ProcessEnv): boolean {
  return YES.test(env.SEARCH_SANDBOX_EPHEMERAL ?? '');
}

function envOverrides(env: NodeJS.ProcessEnv): ConfigOverrides {
  const ephemeral = envValue(env, 'SEARCH_SANDBOX_EPHEMERAL');
  return {
    port: envValue(env, 'SEARCH_SANDBOX_PORT'),
    host: envValue(env, 'SEARCH_SANDBOX_HOST'),
    httpsPort: envValue(env, 'SEARCH_SANDBOX_HTTPS_PORT'),
    data: envValue(env, 'SEARCH_SANDBOX_DATA'),
    ephemeral:
      ephemeral === undefined ? undefined : parseBool(ephemeral, 'SEARCH_SANDBOX_EPHEMERAL'),
    config: envValue(env, 'SEARCH_SANDBOX_CONFIG'),
  };
}

function buildConfig(
  raw: Record<string, unknown>,
  file: string,
  baseDir: string,
  source: string,
  env: ConfigOverrides,
  flags: ConfigOverrides,
  cwd: string,
  processEnv: NodeJS.ProcessEnv,
): SandboxConfig {
  // every part is read, and every problem said at once: a file is fixed in one round, not one run each
  const problems = new ConfigProblems();
  for (const key of Object.keys(raw)) {
    if (!TOP_LEVEL_KEYS.includes(key)) {
      problems.add(
        new ConfigError(
          key,
          `unknown key; ${didYouMean(key, KNOWN_TOP_LEVEL)}allowed keys are ${KNOWN_TOP_LEVEL.join(', ')}`,
          file,
        ),
      );
    }
  }
  const names = flags.names ?? FLAG_NAMES;
  const listen = problems.part(() => listening(raw, file, env, flags, names));
  // where the data goes is said by the highest layer that says anything about it: a flag (--ephemeral or
  // --data) wins over the environment (SEARCH_SANDBOX_EPHEMERAL or SEARCH_SANDBOX_DATA), as every setting does
  const ephemeral =
    flags.ephemeral ?? (flags.data !== undefined ? false : undefined) ?? env.ephemeral ?? false;
  // the file's dataDir is checked even when a flag or variable says where the data goes (as every value is)
  const fileDataDir =
    raw.dataDir === undefined
      ? undefined
      : problems.part(() => configString(raw.dataDir, 'dataDir', file));
  const dataRaw = flags.data ?? env.data ?? fileDataDir;
  if (flags.ephemeral && flags.data)
    throw new ConfigError(names.data, '--data and --ephemeral exclude each other: pick one');
  // the same conflict in the environment: a data directory set, then lost on exit, is refused too
  if (env.ephemeral && env.data !== undefined)
    throw new ConfigError(
      'SEARCH_SANDBOX_DATA',
      `${JSON.stringify(env.data)} and SEARCH_SANDBOX_EPHEMERAL=true exclude each other: pick one (unset SEARCH_SANDBOX_EPHEMERAL to keep the data there, or unset SEARCH_SANDBOX_DATA to keep it in memory)`,
      'environment',
    );
  const retention = problems.part(() =>
    parseRetention(raw.retention, file, envValue(processEnv, 'SEARCH_SANDBOX_RETENTION')),
  );
  const timelines = problems.part(() => parseTimelineSettings(raw.timelines, file));
  const attribution = problems.part(() => parseAttribution(raw.attribution, file));
  const rules = problems.part(() =>
    raw.rules === undefined ? {} : parseRules(raw.rules, 'rules', file, RULE_IDS),
  );
  const accounts = problems.part(() => parseSandboxAccounts(raw.accounts, baseDir, file));
  const smtp = problems.part(() => parseSmtp(raw.smtp, file));
  problems.settle();
  const { host, port, httpsPort } = listen!;
  return {
    host,
    port,
    httpsPort,
    dataDir: ephemeral
      ? null
      : path.resolve(
          flags.data || env.data ? cwd : baseDir,
          dataRaw ?? path.join(cwd, '.search-sandbox'),
        ),
    retention: retention!,
    timelines: timelines!,
    attribution: attribution!,
    rules: rules!,
    accounts: accounts!,
    smtp: smtp!,
    configSource: source,
  };
}

/** Where the sandbox listens: each of host, port and httpsPort from its layers, checked in every layer. */
function listening(
  raw: Record<string, unknown>,
  file: string,
  env: ConfigOverrides,
  flags: ConfigOverrides,
  names: OverrideNames,
): { host: string; port: number; httpsPort: number | null } {
  const port = layered(
    expectPort,
    { key: 'port', value: raw.port, source: file, json: true },
    { key: 'SEARCH_SANDBOX_PORT', value: env.port, source: 'environment', json: false },
    { key: names.port, value: flags.port, source: '', json: false },
  );
  const httpsPort = layered(
    expectPort,
    { key: 'httpsPort', value: raw.httpsPort, source: file, json: true },
    { key: 'SEARCH_SANDBOX_HTTPS_PORT', value: env.httpsPort, source: 'environment', json: false },
    { key: names.httpsPort, value: flags.httpsPort, source: '', json: false },
  );
  const host = layered(
    expectHost,
    { key: 'host', value: raw.host, source: file, json: true },
    { key: 'SEARCH_SANDBOX_HOST', value: env.host, source: 'environment', json: false },
    { key: names.host, value: flags.host, source: '', json: false },
  );
  const httpPort = port?.value ?? DEFAULT_PORT;
  const secure = httpsPort?.value ?? null;
  if (secure !== null && secure !== 0 && secure === httpPort)
    throw new ConfigError(
      httpsPort!.given.key,
      `${secure} is also the HTTP port (${port?.given.key ?? 'the default port'}): HTTPS needs a port of its own, e.g. ${secure === 65535 ? secure - 1 : secure + 1}, or 0 for a free one`,
      httpsPort!.given.source,
    );
  return { host: host?.value ?? '127.0.0.1', port: httpPort, httpsPort: secure };
}

/** A value as one layer gave it; `json`: the config file's (or object's), where a number is written as one. */
interface Given {
  key: string;
  value: unknown;
  /** a file path, 'environment', or '' for a flag (its key says it all) */
  source: string;
  json: boolean;
}

/**
 * Every layer's value checked, whether or not a later layer overrides it: a mistake in the config file or
 * a set variable must not wait for the day nobody passes the flag that hides it (a CI job that passes
 * --port 0 would never see the file's port 99999). The last given wins; remember where it came from so
 * errors can name it.
 */
function layered<T>(
  check: (given: Given) => T,
  ...layers: Given[]
): { value: T; given: Given } | undefined {
  const set = layers.filter((given) => given.value !== undefined);
  const over = set[set.length - 1];
  let found: { value: T; given: Given } | undefined;
  for (const given of set) {
    try {
      found = { value: check(given), given };
    } catch (err) {
      if (!(err instanceof ConfigError) || !over || over === given) throw err;
      throw new ConfigError(
        err.key,
        `${err.reason} (${over.key} overrides it, but every layer is checked: fix it here or take it out)`,
        err.source,
      );
    }
  }
  return found;
}

const PORT_RULE = 'a whole number from 0 to 65535 (0 picks a free port)';

function expectPort(given: Given): number {
  if (given.json)
    refuseQuotedNumber(given.value, given.key, given.source, `a port is ${PORT_RULE}`);
  const n =
    typeof given.value === 'number'
      ? given.value
      : /^\d+$/.test(String(given.value))
        ? Number(given.value)
        : NaN;
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new ConfigError(
      given.key,
      `${JSON.stringify(given.value)} is not a port: use ${PORT_RULE}`,
      given.source,
    );
  }
  return n;
}

function expectHost(given: Given): string {
  const v = given.value;
  if (typeof v !== 'string' || !/^[A-Za-z0-9.:\-[\]]+$/.test(v)) {
    throw new ConfigError(
      given.key,
      `${JSON.stringify(v)} is not a host name or IP address (e.g. 127.0.0.1, 0.0.0.0, ::1)`,
      given.source,
    );
  }
  return v.replace(/^\[(.*)\]$/, '$1');
}

function parseBool(v: string, key: string): boolean {
  if (YES.test(v)) return true;
  if (NO.test(v)) return false;
  throw new ConfigError(
    key,
    `${JSON.stringify(v)} is not a boolean: use true or false (1/0, yes/no and on/off are read too)`,
    'environment',
  );
}

function parseRetention(
  raw: unknown,
  file: string,
  fromEnv: string | undefined,
): { events: number } {
  let events = 100_000;
  if (raw !== undefined) {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw))
      throw new ConfigError('retention', 'must be an object like {"events": 100000}', file);
    for (const k of Object.keys(raw))
      if (k !== 'events') throw unknownKey('retention', k, ['events'], file);
    const v = (raw as { events?: unknown }).events;
    refuseQuotedNumber(v, 'retention.events', file, 'a number of events is a whole number >= 1');
    if (v !== undefined) events = positiveInt('retention.events', v, file);
  }
  if (fromEnv !== undefined)
    events = positiveInt(
      'SEARCH_SANDBOX_RETENTION',
      /^\d+$/.test(fromEnv) ? Number(fromEnv) : fromEnv,
      'environment',
    );
  return { events };
}

function positiveInt(key: string, v: unknown, source: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1)
    throw new ConfigError(key, `${JSON.stringify(v)} must be a whole number >= 1`, source);
  return v;
}

export const DEFAULT_ATTRIBUTION_HOURS = 24;
const ATTRIBUTION_RULE = 'a number of hours above 0 and at most 8784 (a year), e.g. 24';

function parseAttribution(raw: unknown, file: string): { windowHours: number } {
  if (raw === undefined) return { windowHours: DEFAULT_ATTRIBUTION_HOURS };
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new ConfigError('attribution', 'must be an object like {"windowHours": 24}', file);
  let windowHours = DEFAULT_ATTRIBUTION_HOURS;
  for (const [k, v] of Object.entries(raw)) {
    if (k !== 'windowHours') throw unknownKey('attribution', k, ['windowHours'], file);
    refuseQuotedNumber(v, 'attribution.windowHours', file, ATTRIBUTION_RULE);
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v > 24 * 366)
      throw new ConfigError(
        'attribution.windowHours',
        `${JSON.stringify(v)} must be ${ATTRIBUTION_RULE}`,
        file,
      );
    windowHours = v;
  }
  return { windowHours };
}

function parseSmtp(raw: unknown, file: string): SmtpConfig | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw new ConfigError(
      'smtp',
      'must be an object like {"host": "127.0.0.1", "port": 1025}',
      file,
    );
  const r = raw as Record<string, unknown>;
  for (const k of Object.keys(r))
    if (!['host', 'port', 'from'].includes(k))
      throw unknownKey('smtp', k, ['host', 'port', 'from'], file);
  const host = configString(r.host, 'smtp.host', file);
  const port =
    r.port === undefined
      ? 25
      : expectPort({ value: r.port, key: 'smtp.port', source: file, json: true });
  const from =
    r.from === undefined ? 'search-sandbox@localhost' : configString(r.from, 'smtp.from', file);
  return { host, port, from };
}
