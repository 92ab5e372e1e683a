// Why a fetch failed before any answer. Node's fetch (undici) rejects with a TypeError "fetch failed" whose
// `cause` holds the network's reason: a code (ECONNREFUSED, ENOTFOUND) or a message ("bad port",
// "unexpected redirect"); a browser's fetch holds none.

/** The network's reason a fetch failed with, when it gave one. */
export function fetchFailureCause(err: unknown): { code?: string; message?: string } | undefined {
  const cause = (err as { cause?: unknown } | null)?.cause;
  return typeof cause === 'object' && cause !== null
    ? (cause as { code?: string; message?: string })
    : undefined;
}

/** The reason in a word for a message: the cause's code, else its message, else the error's own message. */
export function fetchFailureReason(err: unknown): string {
  const cause = fetchFailureCause(err);
  return cause?.code ?? cause?.message ?? (err as Error).message;
}
