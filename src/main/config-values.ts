// Checks for values read from a config file: each throws a ConfigError naming the key, the value and the rule.
import { ConfigError } from './config-error';

/** An object with only `allowed` keys. */
export function configObject(
  v: unknown,
  key: string,
  file: string,
  allowed: string[],
): Record<string, unknown> {
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw new ConfigError(key, `must be an object, got ${JSON.stringify(v)}`, file);
  for (const k of Object.keys(v))
    if (!allowed.includes(k))
      throw new ConfigError(`${key}.${k}`, `unknown key; allowed: ${allowed.join(', ')}`, file);
  return v as Record<string, unknown>;
}

export function configString(v: unknown, key: string, file: string): string {
  if (typeof v !== 'string' || v === '')
    throw new ConfigError(key, `must be a non-empty string, got ${JSON.stringify(v)}`, file);
  return v;
}

export function configBool(v: unknown, key: string, file: string): boolean {
  if (typeof v !== 'boolean')
    throw new ConfigError(key, `must be true or false, got ${JSON.stringify(v)}`, file);
  return v;
}
