// A server compiles the beacon validators ahead, one endpoint per turn of the event loop, right after it
// starts listening: a storefront's first beacon of each kind then finds its validator ready instead of
// waiting 5–30 ms for it to compile (~100 ms for the very first, which builds ajv itself). One turn holds
// the loop no longer than one compile, as a first beacon of that kind would have. `serve` and the desktop
// app do it; a sandbox started in a test (`startSandbox()`) compiles on first use, as `check` does.
import { WARM_ORDER, warmValidator } from './tracking/schemas';

/** Start compiling in the background; the returned function stops it (nothing keeps the process alive). */
export function warmValidatorsInBackground(order: readonly string[] = WARM_ORDER): () => void {
  let next = 0;
  let timer: NodeJS.Timeout | null = null;
  const step = () => {
    timer = null;
    if (next >= order.length) return;
    warmValidator(order[next++]!);
    timer = setTimeout(step, 0).unref();
  };
  timer = setTimeout(step, 0).unref();
  return () => {
    if (timer) clearTimeout(timer);
    timer = null;
    next = order.length;
  };
}
