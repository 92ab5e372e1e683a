// The SSE connection to `GET /_sandbox/stream`: parses `{type, data}` envelopes, reconnects by itself
// with backoff, and reports its status so the UI can say when it is live and when it is not.
import { STREAM_TYPES, type StreamMessage } from '../../../shared/stream';

export type ConnectionStatus =
  | { state: 'connecting'; attempt: number }
  | { state: 'live'; since: number }
  | { state: 'disconnected'; since: number; attempt: number; retryAt: number };

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];

export interface StreamHandlers {
  onMessage(message: StreamMessage): void;
  /** called on every (re)open: the caller reloads snapshots, since messages may have been missed */
  onOpen(reconnected: boolean): void;
  onStatus(status: ConnectionStatus): void;
}

/** Accept both an envelope in a default `message` event and named SSE events carrying only the data. */
function parseStreamData(name: string, raw: string): StreamMessage | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (parsed && typeof parsed === 'object' && 'type' in parsed && 'data' in parsed) {
    const type = (parsed as { type: unknown }).type;
    if (typeof type === 'string' && (STREAM_TYPES as readonly string[]).includes(type))
      return parsed as StreamMessage;
  }
  // the server names each SSE event by its message type (src/shared/stream.ts), so name and data agree
  if ((STREAM_TYPES as readonly string[]).includes(name))
    return { type: name, data: parsed } as StreamMessage;
  return null;
}

export class StreamConnection {
  private source: EventSource | null = null;
  private attempt = 0;
  private everOpened = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  /** when the stream was lost; kept across failed retries so the UI says "since 12:03" */
  private downSince: number | null = null;

  constructor(
    private readonly url: string,
    private readonly handlers: StreamHandlers,
  ) {}

  start(): void {
    this.stopped = false;
    this.open();
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.source?.close();
    this.source = null;
  }

  /** Skip the backoff wait (the "Retry now" button). */
  retryNow(): void {
    if (this.stopped) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.source?.close();
    this.open();
  }

  private open(): void {
    this.handlers.onStatus({ state: 'connecting', attempt: this.attempt });
    const source = new EventSource(this.url);
    this.source = source;
    const deliver = (name: string) => (e: MessageEvent<string>) => {
      const message = parseStreamData(name, e.data);
      if (message) this.handlers.onMessage(message);
    };
    source.addEventListener('message', deliver('message'));
    for (const type of STREAM_TYPES) source.addEventListener(type, deliver(type) as EventListener);
    source.onopen = () => {
      const reconnected = this.everOpened;
      this.everOpened = true;
      this.attempt = 0;
      this.downSince = null;
      this.handlers.onStatus({ state: 'live', since: Date.now() });
      this.handlers.onOpen(reconnected);
    };
    source.onerror = () => {
      if (source !== this.source) return;
      // We own the retry policy (EventSource gives up for good on some errors): close and schedule.
      source.close();
      this.source = null;
      this.scheduleRetry();
    };
  }

  private scheduleRetry(): void {
    if (this.stopped) return;
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)]!;
    this.attempt += 1;
    this.downSince ??= Date.now();
    this.handlers.onStatus({
      state: 'disconnected',
      since: this.downSince,
      attempt: this.attempt,
      retryAt: Date.now() + delay,
    });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.open();
    }, delay);
  }
}
