// The desktop shell talks to its sandbox the way any client does: over HTTP on the sandbox's URL,
// through the public admin API and the real bulk-index endpoint. No shortcut into internals, so
// what a menu item does is exactly what a script or the UI could do.
import { openAsBlob } from 'node:fs';
import path from 'node:path';
import { AdminApiClient } from '../../shared/admin-client';

export interface HttpOutcome {
  status: number;
  contentType: string;
  body: Buffer;
}

export type ReportFormat = 'html' | 'junit' | 'json';

export const REPORT_FORMATS: Record<ReportFormat, { label: string; extension: string }> = {
  html: { label: 'HTML report', extension: 'html' },
  junit: { label: 'JUnit XML', extension: 'xml' },
  json: { label: 'JSON', extension: 'json' },
};

export interface FeedUploadRequest {
  siteId: string;
  secretKey: string;
  feedId: number;
  requestedBy?: string;
  filePath: string;
}

export class AdminClient {
  private readonly admin: AdminApiClient;

  constructor(
    private readonly baseUrl: string,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    // the admin API through the one admin client; a network failure is thrown as it came
    this.admin = new AdminApiClient(baseUrl, {
      fetch: (...args) => this.fetchImpl(...args),
      fail: (f) => (f.cause instanceof Error ? f.cause : new Error(String(f.cause))),
    });
  }

  /** GET /_sandbox/report?format=… */
  async report(format: ReportFormat): Promise<HttpOutcome> {
    return outcome(await this.admin.send('report', { query: { format } }));
  }

  /** POST /_sandbox/import: a sandbox export or an array of recorded events (see import-file.ts). */
  async importEvents(json: string): Promise<HttpOutcome> {
    return outcome(await this.admin.send('import', { jsonText: json }));
  }

  /** POST /api/index/feed exactly as a client's bulk index request: basic auth, multipart field `feedFile`. */
  async uploadFeed(request: FeedUploadRequest): Promise<HttpOutcome> {
    const form = new FormData();
    // a file-backed Blob: a large feed is streamed from disk, not read into memory first
    form.append('feedFile', await openAsBlob(request.filePath), path.basename(request.filePath));
    const query = new URLSearchParams({ feedId: String(request.feedId) });
    if (request.requestedBy) query.set('requestedBy', request.requestedBy);
    const credentials = Buffer.from(`${request.siteId}:${request.secretKey}`).toString('base64');
    return this.send(`/api/index/feed?${query}`, {
      method: 'POST',
      headers: { Authorization: `Basic ${credentials}` },
      body: form,
    });
  }

  private async send(pathAndQuery: string, init: RequestInit): Promise<HttpOutcome> {
    return outcome(await this.fetchImpl(`${this.baseUrl}${pathAndQuery}`, init));
  }
}

async function outcome(res: Response): Promise<HttpOutcome> {
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    body: Buffer.from(await res.arrayBuffer()),
  };
}

/** The reason a failed admin call gives (its JSON `message`), or the start of its body. */
export function failureReason(outcome: HttpOutcome): string {
  const text = outcome.body.toString('utf8');
  try {
    const parsed = JSON.parse(text) as { message?: unknown; messages?: unknown };
    if (typeof parsed.message === 'string') return parsed.message;
    if (Array.isArray(parsed.messages)) return parsed.messages.join('; ');
  } catch {
    /* not JSON: fall through to the raw text */
  }
  return text.slice(0, 300) || `HTTP ${outcome.status}`;
}

/** The body as JSON when it is JSON, else as text: what the preload hands back to the UI. */
export function bodyForUi(outcome: HttpOutcome): unknown {
  const text = outcome.body.toString('utf8');
  if (outcome.contentType.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}
