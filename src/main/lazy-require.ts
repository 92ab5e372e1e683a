// A package loaded the first time it is used rather than when the sandbox starts: for packages that only
// some runs need (a feed format's reader, the admin API's request validator), whose loading would cost
// every start of `check` and `serve` tens of milliseconds of CPU. CommonJS, through `require`, so that a
// synchronous caller can have it; its types are the package's own.
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/** `name` as `require` gives it, loaded on the first call and kept. */
export function lazily<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load(name) as T);
}
