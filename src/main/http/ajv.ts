// The admin API's request validators: ajv, loaded and made when the first request with a query or a JSON
// body is checked, not when the sandbox starts (~80 ms of every start's CPU; the beacon validators are
// compiled when the sandbox is built and need no ajv).
import type { Ajv, Options } from 'ajv';
import { lazily } from '../lazy-require';

const ajvPackage = lazily<typeof import('ajv')>('ajv');

/** An ajv with `options`, made on the first call and kept. */
export function ajvCompiler(options: Options): () => Ajv {
  let made: Ajv | undefined;
  return () => (made ??= new (ajvPackage().Ajv)(options));
}
