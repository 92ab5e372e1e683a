// Large answers (export, events list, reports) written as a stream: pieces are gathered into writes of
// about 64 KiB, each waits for the socket to drain when its buffer is full (backpressure: a slow client
// cannot make the body pile up in memory), and the event loop is given back between slices of work.
import type { Response } from 'express';
import { Slicer } from '../slices';

const WRITE_BYTES = 64 * 1024;

/**
 * Write `parts` as the body and end the response; false when the client went away first (nothing more
 * is produced then). Headers must be set before.
 */
export async function streamBody(
  res: Response,
  parts: Iterable<string>,
  slicer = new Slicer(),
): Promise<boolean> {
  let pending = '';
  for (const part of parts) {
    pending += part;
    if (pending.length >= WRITE_BYTES) {
      if (!(await write(res, pending))) return false;
      pending = '';
    }
    await slicer.breathe();
  }
  if (pending && !(await write(res, pending))) return false;
  res.end();
  return true;
}

/** Resolve once `chunk` is handed to the socket, waiting for drain when its buffer is full. */
function write(res: Response, chunk: string): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  if (res.write(chunk)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => () => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = done(true);
    const onClose = done(false);
    res.once('drain', onDrain);
    res.once('close', onClose);
  });
}

/** The pieces in order; iterables are drawn from only when their turn comes. */
export function* concat(...pieces: Array<string | Iterable<string>>): Generator<string> {
  for (const piece of pieces) {
    if (typeof piece === 'string') yield piece;
    else yield* piece;
  }
}

/** `items` one after another, made only when their turn comes: `map` runs as the body is written. */
export function* mapped<T>(
  items: Iterable<T>,
  map: (item: T, i: number) => string,
): Generator<string> {
  let i = 0;
  for (const item of items) yield map(item, i++);
}
