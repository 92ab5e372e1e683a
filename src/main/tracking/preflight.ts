// The personalization preflight (`POST {personalization origin}/v1/preflight`) that the provider's client
// sends when the cart, the viewed products or the shopper change. The sandbox has no personalization: it
// checks the body's shape and answers 200, so a storefront pointed at it keeps a clean console.
import { methodRefused } from '../../shared/events';

export interface PreflightRequest {
  method: string;
  contentType?: string;
  rawBody: Buffer | null;
  /** GET variant: the same fields as query parameters */
  query?: Record<string, string | string[] | undefined>;
}

export type PreflightResponse =
  | { status: 200; body: { success: true } }
  | { status: 204; body: null }
  | { status: 400 | 405; body: { success: false; error: string; messages: string[] } };

/** What beacon.js sends (PreflightRequestModel in @athoscommerce/beacon). */
function problems(body: unknown): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return ['invalid data type passed for key: request body'];
  const record = body as Record<string, unknown>;
  const out: string[] = [];
  for (const key of ['userId', 'siteId']) {
    if (record[key] === undefined) out.push(`missing required key-value: ${key}`);
    else if (typeof record[key] !== 'string') out.push(`invalid data type passed for key: ${key}`);
  }
  if (record.shopper !== undefined && typeof record.shopper !== 'string')
    out.push('invalid data type passed for key: shopper');
  for (const key of ['cart', 'lastViewed']) {
    const value = record[key];
    if (value === undefined) continue;
    const list = typeof value === 'string' ? value.split(',') : value; // GET sends comma lists
    if (!Array.isArray(list) || list.some((item) => typeof item !== 'string'))
      out.push(`invalid data type passed for key: ${key}`);
  }
  return out;
}

function reject(status: 400 | 405, error: string, messages: string[]): PreflightResponse {
  return { status, body: { success: false, error, messages } };
}

export function handlePreflight(request: PreflightRequest): PreflightResponse {
  const method = request.method.toUpperCase();
  // A storefront may add custom personalization headers, which makes the browser ask first.
  if (method === 'OPTIONS') return { status: 204, body: null };
  if (method === 'GET') {
    const query = Object.fromEntries(
      Object.entries(request.query ?? {}).filter(([, v]) => v !== undefined),
    );
    const found = problems(query);
    return found.length
      ? reject(400, 'ValidationError', found)
      : { status: 200, body: { success: true } };
  }
  if (method !== 'POST') return reject(405, 'InvalidMethodError', [methodRefused(method)]);

  const text = request.rawBody?.toString('utf8') ?? '';
  if (text.length === 0) return reject(400, 'ValidationError', ['missing JSON POST body']);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return reject(400, 'ValidationError', ['invalid JSON POST body']);
  }
  const found = problems(body);
  return found.length
    ? reject(400, 'ValidationError', found)
    : { status: 200, body: { success: true } };
}
