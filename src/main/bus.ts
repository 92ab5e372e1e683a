// A typed in-process bus: the domain emits, the HTTP layer (SSE) and other domains listen.
// Only http/ knows about Server-Sent Events; domain code never touches a socket.
import type { StreamMessage, StreamType } from '../shared/stream';

export type Listener = (message: StreamMessage) => void;

export interface ListenOptions {
  /**
   * Whether this listener takes messages of `type` right now (default: every type, always). The SSE hub
   * answers from its connected clients' filters, so a domain can skip building messages nobody reads.
   */
  wants?: (type: StreamType) => boolean;
}

export class Bus {
  private listeners = new Map<Listener, ListenOptions>();

  on(listener: Listener, options: ListenOptions = {}): () => void {
    this.listeners.set(listener, options);
    return () => this.listeners.delete(listener);
  }

  /**
   * Whether any listener would take a message of `type` now. Work done only to tell someone (judging
   * every changed page for the live Timelines list) asks first: with no UI or notifications open, a
   * beacon costs its recording and nothing more; reads judge what they return themselves.
   */
  wants(type: StreamType): boolean {
    for (const options of this.listeners.values()) if (options.wants?.(type) ?? true) return true;
    return false;
  }

  emit(message: StreamMessage): void {
    for (const [listener, options] of this.listeners) {
      if (options.wants && !options.wants(message.type)) continue;
      try {
        listener(message);
      } catch (err) {
        // A broken listener (e.g. a closed SSE socket) must never break ingest.
        console.error('search-sandbox: bus listener failed:', err);
      }
    }
  }
}
