// HTTP basic auth of the indexing interface: username = siteId, password = the account's secret key.
// Compared in constant time (over digests, so lengths do not leak); secrets never appear in messages.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AccountConfig } from '../accounts/config';
import { SITE_ID_PATTERN } from '../../shared/site-id';

export type AuthResult = { ok: true; account: AccountConfig } | { ok: false; message: string };

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
// Compared against when the siteId is unknown, so both paths cost the same.
const DUMMY = digest('search-sandbox: no such account');

export function authenticate(
  header: string | undefined,
  accounts: readonly AccountConfig[],
): AuthResult {
  if (!header)
    return {
      ok: false,
      message:
        'missing credentials: send HTTP basic auth with your siteId as user name and your secret key as password',
    };
  const m = /^Basic\s+([A-Za-z0-9+/=_-]*)\s*$/i.exec(header);
  if (!m && /^Basic(\s|$)/i.test(header))
    return {
      ok: false,
      message:
        'malformed basic auth credentials: what follows "Basic " is not base64; send Authorization: Basic base64(siteId:secretKey) (curl -u siteId:secretKey does it)',
    };
  if (!m)
    return {
      ok: false,
      message:
        'unsupported Authorization header: use HTTP basic auth (Authorization: Basic base64(siteId:secretKey))',
    };
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0)
    return {
      ok: false,
      message: 'malformed basic auth credentials: expected base64 of "siteId:secretKey"',
    };
  const siteId = decoded.slice(0, colon);
  const secret = decoded.slice(colon + 1);
  const account = accounts.find((a) => a.siteId === siteId);
  const given = digest(secret);
  const equal = timingSafeEqual(given, account ? digest(account.secretKey) : DUMMY);
  if (!account || !equal)
    return {
      ok: false,
      message:
        'invalid credentials: the siteId and secret key do not match an account of this sandbox',
    };
  return { ok: true, account };
}

/** The user name (siteId) a basic auth header claims, checked or not: to say who a refused request was from. */
export function claimedSiteId(header: string | undefined, secrets: readonly string[] = []): string {
  const m = /^Basic\s+([A-Za-z0-9+/=_-]*)\s*$/i.exec(header ?? '');
  if (!m) return '';
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  // never anything past the colon (the secret); and what stands before it only when it is shaped like a
  // siteId and is no account's secret key: credentials sent the wrong way round must not put the secret
  // on the stream
  const claimed = colon < 0 ? '' : decoded.slice(0, colon);
  return SITE_ID_PATTERN.test(claimed) && !secrets.includes(claimed) ? claimed : '';
}
