// The UI's only door to the sandbox: typed fetch calls to the public admin API (`/_sandbox/*`) and the
// provider interfaces (`/api/index/*`), turning every failure into an ApiError with a readable message.

import type { AdminEndpointName, AnswerOf, QueryOf } from '../../../shared/admin-api';
import { AdminApiClient, type AdminCall, type AdminFailure } from '../../../shared/admin-client';

/** A failed call: `status` 0 means the sandbox could not be reached at all. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Query = Record<string, string | number | boolean | undefined | null>;

export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** The message a person should read for an error body in any of the sandbox's shapes. */
export function messageOf(body: unknown, fallback: string): string {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (typeof b.message === 'string' && b.message) return b.message;
    if (Array.isArray(b.messages) && b.messages.length) return b.messages.map(String).join('; ');
    if (typeof b.error === 'string' && b.error) return b.error;
  }
  if (typeof body === 'string' && body.trim()) return body.trim().slice(0, 300);
  return fallback;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** fetch + JSON, throwing ApiError on network failure and on any non-2xx status. */
export async function request<T>(path: string, init: RequestInit = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError('The sandbox is not reachable: is it still running?', 0);
  }
  const body = await readBody(res);
  if (!res.ok) {
    throw new ApiError(
      messageOf(body, `${init.method ?? 'GET'} ${path} answered ${res.status}`),
      res.status,
      body,
    );
  }
  return body as T;
}

export function getJson<T>(path: string, query?: Query): Promise<T> {
  return request<T>(withQuery(path, query), { headers: { Accept: 'application/json' } });
}

/** HTTP basic auth header value, as a storefront's indexing client would send it. */
export function basicAuth(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `Basic ${btoa(binary)}`;
}

/** Result of a provider-interface call, kept whole (status + body) because the UI shows both. */
export interface RawResult {
  status: number;
  ok: boolean;
  body: unknown;
  retryAfter: string | null;
}

/** A call whose non-2xx answers are data to show, not exceptions (e.g. the bulk indexing API). */
export async function rawRequest(path: string, init: RequestInit = {}): Promise<RawResult> {
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError('The sandbox is not reachable: is it still running?', 0);
  }
  return {
    status: res.status,
    ok: res.ok,
    body: await readBody(res),
    retryAfter: res.headers.get('Retry-After'),
  };
}

/** A failure of the one admin client, as the UI shows it. */
function uiFailure(f: AdminFailure): ApiError {
  if (f.status === 0) return new ApiError('The sandbox is not reachable: is it still running?', 0);
  return new ApiError(
    messageOf(f.body, `${f.method} ${f.path} answered ${f.status}`),
    f.status,
    f.body ?? null,
  );
}

const clients = new Map<string, AdminApiClient>();

/**
 * One admin endpoint by its name in the declaration (src/shared/admin-api.ts), through the one admin
 * client (src/shared/admin-client.ts): the answer has the endpoint's declared type, so the UI never
 * guesses a shape.
 */
export function admin<N extends AdminEndpointName, const Q extends QueryOf<N> = QueryOf<N>>(
  name: N,
  options: AdminCall<N, Q> & { base?: string } = {},
): Promise<NoInfer<AnswerOf<N, Q>>> {
  const base = options.base ?? '';
  let client = clients.get(base);
  if (!client) {
    client = new AdminApiClient(base, { fail: uiFailure });
    clients.set(base, client);
  }
  return client.call(name, options as AdminCall<N, never>) as Promise<never>;
}
