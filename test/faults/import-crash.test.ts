// An import stopped at a random moment, by kill -9 or SIGTERM, with and without ?replace=true: the
// restarted sandbox shows the events as they were before the import or as they are after it, never a
// part of it, and in either case every beacon acknowledged meanwhile.
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { beacon, json, render, runCleanups, serve, tempDir } from './fault-helpers';

afterEach(runCleanups);
/** which state each run restarted in (a midway kill may land after the import completed) */
const outcomes: string[] = [];
afterAll(() => console.log(`import-crash outcomes (FAULT_SEED=${SEED}):\n${outcomes.join('\n')}`));

interface Listed {
  events: Array<{ siteId: string; body: { context: { pageLoadId: string } } }>;
}

const IMPORTED = 2_000;
const BEFORE = 20;

/** A seeded random (mulberry32), so that a failing point can be run again: the seed is in the test name. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const SEED = Number(process.env.FAULT_SEED ?? Date.now() % 100_000);

/** An export of IMPORTED events of site imp001, made from a recorded event of the running sandbox. */
async function importBody(url: string): Promise<string> {
  const exported = await json<{ events: Array<Record<string, unknown>> }>(
    fetch(`${url}/_sandbox/events?limit=1`),
  );
  const model = exported.events[0]!;
  const events = Array.from({ length: IMPORTED }, (_, i) => {
    const body = structuredClone(model.body) as { context: { pageLoadId: string } };
    body.context.pageLoadId = `imported-${i}`;
    return { ...model, siteId: 'imp001', body };
  });
  return JSON.stringify({ events });
}

const pages = (listed: Listed) => listed.events.map((e) => e.body.context.pageLoadId);

describe(`an import stopped at a random point (FAULT_SEED=${SEED})`, () => {
  const rand = random(SEED);
  for (const signal of ['SIGKILL', 'SIGTERM'] as const)
    for (const replace of [false, true])
      for (const when of ['midway', 'after it answered'] as const) {
        // a completed import once per signal is enough: the random midway points are the point
        if (when === 'after it answered' && replace !== (signal === 'SIGKILL')) continue;
        it(`${signal}, replace=${replace}, ${when}: before or after, plus the beacons acknowledged meanwhile`, async () => {
          const dir = tempDir('import-crash-');
          const data = path.join(dir, 'data');
          const first = await serve(data, dir);
          for (let i = 0; i < BEFORE; i++)
            expect((await beacon(first.url, render(`before-${i}`))).status).toBe(200);
          const body = await importBody(first.url);
          const importing = fetch(`${first.url}/_sandbox/import${replace ? '?replace=true' : ''}`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body,
          }).then(
            (res) => res.status,
            () => null, // the connection dies with the process
          );
          // wait until the import has stored part of itself (a random part), then send beacons meanwhile
          const stored = 1 + Math.floor(rand() * (IMPORTED - 1));
          const waited = await fetch(
            `${first.url}/_sandbox/wait?siteId=imp001&count=${stored}&timeout=20000`,
          );
          expect(waited.status).toBe(200);
          // together, so that the kill follows them closely, while the import still runs
          const meanwhile = Array.from({ length: 5 }, (_, i) => `meanwhile-${i}`);
          const statuses = await Promise.all(meanwhile.map((p) => beacon(first.url, render(p))));
          expect(statuses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
          if (when === 'after it answered') expect(await importing).toBe(200);
          first.child.kill(signal);
          await first.exit;

          const second = await serve(data, dir);
          const after = pages(
            await json<Listed>(fetch(`${second.url}/_sandbox/events?limit=100000`)),
          );
          const before = Array.from({ length: BEFORE }, (_, i) => `before-${i}`);
          const imported = Array.from({ length: IMPORTED }, (_, i) => `imported-${i}`);
          const undone = [...before, ...meanwhile];
          const done = [...(replace ? [] : before), ...imported, ...meanwhile].sort();
          if (when === 'after it answered') expect([...after].sort()).toEqual(done);
          else if (after.length === undone.length) expect(after).toEqual(undone);
          else expect([...after].sort()).toEqual(done);
          // SIGTERM answers the import before the connection closes: 200 if it completed, else 503
          // Closing, and the restart shows which
          if (signal === 'SIGTERM')
            expect(await importing).toBe(after.length === undone.length ? 503 : 200);
          outcomes.push(
            `${signal} replace=${replace} ${when}: ${after.length === undone.length ? 'before' : 'after'}`,
          );
          await second.kill();
        });
      }
});
