// `npm run corpus:record [-- id...]`: drives every corpus journey (or the named ones) in Chromium and writes
// what the sandbox recorded to fixtures/corpus/<id>.json, as a sandbox export: the journey's events and the
// search responses issued during it (so the provenance rules judge it offline). Then prints the report.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IssuedResponse } from '../../src/main/search/responses';
import { CORPUS } from './catalog';
import { SCRIPTS } from './journeys';
import { VISIT_SCRIPTS } from './visit-journeys';
import { SITE, startHarness } from './harness';

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/corpus');

async function main(): Promise<number> {
  const only = new Set(process.argv.slice(2));
  const unknown = [...only].filter((id) => !CORPUS.some((c) => c.id === id));
  if (unknown.length > 0) {
    process.stderr.write(`corpus:record: no journey ${unknown.join(', ')}\n`);
    return 2;
  }
  const h = await startHarness();
  let failed = 0;
  try {
    for (const entry of CORPUS) {
      const script = SCRIPTS[entry.id] ?? VISIT_SCRIPTS[entry.id];
      if (!script || (only.size > 0 && !only.has(entry.id))) continue;
      await fetch(`${h.sandbox.url}/_sandbox/reset?siteId=${SITE}`, { method: 'POST' });
      const since = h.sandbox.core.clock.now();
      const started = Date.now();
      try {
        await script(h);
      } catch (err) {
        failed++;
        process.stderr.write(`corpus:record: ${entry.id} failed: ${(err as Error).message}\n`);
        continue;
      }
      const exported = (await (
        await fetch(`${h.sandbox.url}/_sandbox/export?siteId=${SITE}`)
      ).json()) as {
        search: { responses: IssuedResponse[] };
        events: unknown[];
        [key: string]: unknown;
      };
      const fixture = {
        format: exported.format,
        version: exported.version,
        exportedAt: exported.exportedAt,
        sandboxVersion: exported.sandboxVersion,
        corpus: { journey: entry.id, kind: entry.kind, title: entry.title },
        search: {
          responses: exported.search.responses.filter((r) => r.issuedAt >= since).reverse(),
        },
        events: exported.events,
      };
      writeFileSync(path.join(DIR, `${entry.id}.json`), `${JSON.stringify(fixture, null, 1)}\n`);
      process.stdout.write(
        `recorded ${entry.id}: ${exported.events.length} events, ${fixture.search.responses.length} responses (${Date.now() - started} ms)\n`,
      );
    }
  } finally {
    await h.close();
  }
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`corpus:record: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
