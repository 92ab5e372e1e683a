// A typed in-process bus: the domain emits, the HTTP layer (SSE) and other domains listen.
// Only http/ knows about Server-Sent Events; domain code never touches a socket.
import type { StreamMessage } from '../shared/stream';

export type Listener = (message: StreamMessage) => void;

export class Bus {
  private listeners = new Set<Listener>();

  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(message: StreamMessage): void {
    for (const listener of this.listeners) {
      try {
        listener(message);
      } catch (err) {
        // A broken listener (e.g. a closed SSE socket) must never break ingest.
        console.error('search-sandbox: bus listener failed:', err);
      }
    }
  }
}
