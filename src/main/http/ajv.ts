// The admin API's body validators: ajv, loaded and made when the first JSON body that breaks its schema is
// refused (its first error words the 400), not when the sandbox starts (~80 ms of CPU) nor for the bodies
// and queries that keep their schemas (src/shared/schema-fits.ts judges those; the beacon validators are
// compiled when the sandbox is built and need no ajv).
import type { Ajv, Options } from 'ajv';
import { lazily } from '../lazy-require';

const ajvPackage = lazily<typeof import('ajv')>('ajv');

/** An ajv with `options`, made on the first call and kept. */
export function ajvCompiler(options: Options): () => Ajv {
  let made: Ajv | undefined;
  return () => (made ??= new (ajvPackage().Ajv)(options));
}
