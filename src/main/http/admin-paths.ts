// The declared paths of the admin API (src/shared/admin-api.ts) matched against a request's own path, for
// the answers the router cannot give from a mounted route: a path parameter it cannot decode (400 naming
// it) and a declared path asked with a method it does not take (405 with Allow).
import type { NextFunction, Request, Response } from 'express';
import { ADMIN_API, type Endpoint } from '../../shared/admin-api';
import { shown } from '../../shared/text';

interface DeclaredPath {
  method: string;
  names: string[];
  pattern: RegExp;
}

const DECLARED: readonly DeclaredPath[] = Object.values(ADMIN_API as Record<string, Endpoint>).map(
  ({ method, path }) => {
    const names: string[] = [];
    const source = path
      .slice('/_sandbox'.length)
      .split(/\{(\w+)\}/)
      .map((piece, i) => {
        if (i % 2 === 0) return piece.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
        names.push(piece);
        return '([^/]+)';
      })
      .join('');
    // as the router matches: case-insensitive, a trailing slash allowed
    return { method, names, pattern: new RegExp(`^${source}/?$`, 'i') };
  },
);

/** The declared endpoints whose path is `path` (under /_sandbox, as sent: not decoded), with their raw parameters. */
function declaredAt(path: string): Array<{ method: string; params: Array<[string, string]> }> {
  const found = [];
  for (const { method, names, pattern } of DECLARED) {
    const m = pattern.exec(path);
    if (m) found.push({ method, params: names.map((n, i): [string, string] => [n, m[i + 1]!]) });
  }
  return found;
}

/** The text a path part stands for; null when its escapes are not UTF-8. */
function decoded(raw: string): string | null {
  // the value is used: a bundler drops a call whose result is not, and its throw with it
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/**
 * A path parameter that is not percent-encoded UTF-8 (`%ED%A0%80`, the bytes of a lone surrogate; `%FF`;
 * `%zz`): the router cannot decode it, so no handler runs. Answered as the admin API's 400 naming the
 * parameter, the rule and the fix, instead of the router's own words. An error handler, used after the
 * admin routers.
 */
export function undecodablePathParameter(
  err: unknown,
  req: Request,
  res: Response,
  next: NextFunction,
): void {
  if (!(err instanceof URIError)) return next(err);
  const endpoints = declaredAt(req.path);
  const endpoint = endpoints.find((e) => e.method === req.method) ?? endpoints[0];
  const bad = endpoint?.params.find(([, raw]) => decoded(raw) === null);
  if (!bad) return next(err);
  const [parameter, raw] = bad;
  const value = shown(raw);
  const rule = 'a path parameter is percent-encoded UTF-8: its %XX escapes spell UTF-8 bytes';
  const fix =
    'encode the value with encodeURIComponent, as the admin client does (a lone surrogate cannot be sent: it reads as U+FFFD, %EF%BF%BD)';
  res.status(400).json({
    error: 'BadRequest',
    parameter,
    message: `path parameter ${parameter} ${value} does not decode: ${rule}; ${fix}`,
    limit: { value, rule, fix },
  });
}

/**
 * The methods a declared path takes (HEAD with GET, as the router answers it), for a request no route took;
 * empty when the API declares no such path.
 */
export function allowedMethods(path: string): string[] {
  const methods = new Set(declaredAt(path).map((e) => e.method));
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods];
}
