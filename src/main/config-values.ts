// Checks for values read from a config file: each throws a ConfigError naming the key, the value and the rule.
import { ConfigError } from './config-error';
import { didYouMean } from '../shared/nearest';

/** The key `k` of the object at `key` is none of `allowed`: the error names the ones it is near, then all. */
export function unknownKey(
  key: string,
  k: string,
  allowed: readonly string[],
  file: string,
): ConfigError {
  return new ConfigError(
    `${key}.${k}`,
    `unknown key; ${didYouMean(k, allowed)}allowed: ${allowed.join(', ')}`,
    file,
  );
}

/** An object with only `allowed` keys. */
export function configObject(
  v: unknown,
  key: string,
  file: string,
  allowed: string[],
): Record<string, unknown> {
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw new ConfigError(key, `must be an object, got ${JSON.stringify(v)}`, file);
  for (const k of Object.keys(v)) if (!allowed.includes(k)) throw unknownKey(key, k, allowed, file);
  return v as Record<string, unknown>;
}

export function configString(v: unknown, key: string, file: string): string {
  if (v === undefined) throw new ConfigError(key, 'is missing: give it a non-empty string', file);
  if (typeof v !== 'string' || v === '')
    throw new ConfigError(key, `must be a non-empty string, got ${JSON.stringify(v)}`, file);
  return v;
}

export function configBool(v: unknown, key: string, file: string): boolean {
  if (typeof v !== 'boolean')
    throw new ConfigError(key, `must be true or false, got ${JSON.stringify(v)}`, file);
  return v;
}

/**
 * An http(s) URL a request is forwarded to (an origin, optionally with a base path); no query or fragment,
 * no trailing slash. `example` shows a value that works.
 */
export function configBaseUrl(v: unknown, key: string, file: string, example: string): string {
  const raw = configString(v, key, file);
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(
      key,
      `${JSON.stringify(raw)} is not a URL: use true or a URL like ${JSON.stringify(example)}`,
      file,
    );
  }
  if (!/^https?:$/.test(u.protocol))
    throw new ConfigError(
      key,
      `${JSON.stringify(raw)} is not http or https: use a URL like ${JSON.stringify(example)}`,
      file,
    );
  if (u.search || u.hash || u.username || u.password)
    throw new ConfigError(
      key,
      `${JSON.stringify(raw)} has a query, fragment or credentials: give only the origin and base path, like ${JSON.stringify(example)}`,
      file,
    );
  return `${u.origin}${u.pathname}`.replace(/\/+$/, '');
}

/** A whole number within [min, max]; `unit` names what it counts (e.g. "milliseconds"). */
export function configWhole(
  v: unknown,
  key: string,
  file: string,
  min: number,
  max: number,
  unit: string,
): number {
  refuseQuotedNumber(v, key, file, `a whole number of ${unit} from ${min} to ${max}`);
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    throw new ConfigError(
      key,
      `${JSON.stringify(v)} must be a whole number of ${unit} from ${min} to ${max}`,
      file,
    );
  return v;
}

/**
 * A number written in quotes ("port": "8080") where a config file takes a number: refused, not read as the
 * number, with the unquoted form as the fix. A JSON file can say a number, so a string there is a mistake
 * (a template that quoted every value) that would be taken in one place and refused in another; an
 * environment variable is text by nature and is parsed where it is read. `rule` says what the key takes.
 */
export function refuseQuotedNumber(v: unknown, key: string, file: string, rule: string): void {
  if (typeof v !== 'string' || v.trim() === '' || !Number.isFinite(Number(v))) return;
  const name = key.slice(key.lastIndexOf('.') + 1);
  throw new ConfigError(
    key,
    `${JSON.stringify(v)} is a string: write it as a JSON number, without quotes ("${name}": ${Number(v)}); ${rule}`,
    file,
  );
}
