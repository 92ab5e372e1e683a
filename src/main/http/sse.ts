// Server-Sent Events for `GET /_sandbox/stream`: every bus message as `event: <type>` with the `{type, data}`
// envelope as data, numbered `id:` lines, heartbeats, and a bounded buffer per client (a slow client is told
// and disconnected instead of growing the sandbox's memory; EventSource reconnects and reloads).
import type { Request, Response } from 'express';
import type { Bus } from '../bus';
import { STREAM_TYPES } from '../../shared/stream';
import { clipped } from '../../shared/text';

export interface SseOptions {
  /** comment line sent this often so proxies and idle timers keep the connection, ms */
  heartbeatMs?: number;
  /** bytes a client may have unsent before it is cut off */
  maxBufferedBytes?: number;
  /** reconnect delay suggested to EventSource, ms */
  retryMs?: number;
}

/** One numbering of messages for all clients of a sandbox, so `id:` means the same on every connection. */
export class SseHub {
  private nextId = 1;
  private readonly clients = new Map<
    Response,
    { send: (chunk: string, type: string | null) => void; types: Set<string> | null }
  >();
  private readonly heartbeatMs: number;
  private readonly maxBufferedBytes: number;
  private readonly retryMs: number;

  constructor(
    private readonly bus: Bus,
    options: SseOptions = {},
  ) {
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
    this.maxBufferedBytes = options.maxBufferedBytes ?? 4 * 1024 * 1024;
    this.retryMs = options.retryMs ?? 2_000;
    // One subscription for all clients: each message is numbered and serialised once.
    this.bus.on(
      (message) => {
        const chunk = `id: ${this.nextId++}\nevent: ${message.type}\ndata: ${JSON.stringify(message)}\n\n`;
        for (const { send } of [...this.clients.values()]) send(chunk, message.type);
      },
      { wants: (type) => this.wants(type) },
    );
  }

  /** Whether a connected client takes messages of `type` (its `?types=` filter, or none). */
  wants(type: string): boolean {
    for (const { types } of this.clients.values()) if (takes(types, type)) return true;
    return false;
  }

  /** connected clients (for tests and health) */
  get size(): number {
    return this.clients.size;
  }

  /** The request handler: hold the response open and forward bus messages until the client leaves. */
  readonly handle = (req: Request, res: Response): void => {
    const types = parseTypes(req.query.types);
    if (typeof types === 'string') {
      res.status(400).json({ error: 'BadRequest', parameter: 'types', message: types });
      return;
    }
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('Connection', 'keep-alive');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    req.socket.setNoDelay(true);
    req.socket.setTimeout(0);
    res.write(
      `retry: ${this.retryMs}\n: search-sandbox stream; every message is {"type","data"}\n\n`,
    );

    let closed = false;
    const heartbeat = setInterval(
      () => send(`: heartbeat ${new Date().toISOString()}\n\n`, null),
      this.heartbeatMs,
    );
    heartbeat.unref();
    const stop = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      this.clients.delete(res);
    };
    /** `type` null: not a bus message (heartbeat), sent whatever the client's filter */
    const send = (chunk: string, type: string | null) => {
      if (closed || (type !== null && !takes(types, type))) return;
      if (res.writableLength > this.maxBufferedBytes) {
        // The client reads slower than the sandbox produces: stop buffering, say why, and let it reconnect.
        const note = {
          message: `stream closed: more than ${this.maxBufferedBytes} bytes were waiting for this client; reconnect and reload the snapshots (GET /_sandbox/events since the last seq you saw)`,
        };
        const socket = res.socket;
        res.end(`event: overflow\ndata: ${JSON.stringify(note)}\n\n`, () => socket?.end());
        // A client that never reads would hold the buffered bytes until TCP gives up: bound that too.
        setTimeout(() => socket?.destroy(), 30_000).unref();
        stop();
        return;
      }
      res.write(chunk);
    };
    this.clients.set(res, { send, types });
    res.on('close', stop);
    res.on('error', stop);
  };
}

/** Whether a client with this `?types=` filter (null: none) takes messages of `type`. */
function takes(types: Set<string> | null, type: string): boolean {
  return types === null || types.has(type);
}

/** `?types=event,feed` → the set, null for all, or the reason it is refused. */
function parseTypes(raw: unknown): Set<string> | null | string {
  if (raw === undefined) return null;
  const known: readonly string[] = STREAM_TYPES;
  if (typeof raw !== 'string' || raw === '')
    return `query parameter types must be a comma-separated list of ${known.join(', ')}`;
  const types = raw.split(',').map((t) => t.trim());
  const unknown = types.filter((t) => !known.includes(t));
  if (unknown.length)
    return `unknown stream type ${clipped(unknown.join(', '))} in types; known: ${known.join(', ')}`;
  return new Set(types);
}
