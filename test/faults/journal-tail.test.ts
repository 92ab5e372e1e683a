// The end of the journal lost: a zeroed disk block over its last records, a journal of nothing but zeros.
// The start says what it cost and where the damaged bytes are kept, no id is handed out twice, and a
// later start still says the damage is there; a journal that holds no record is refused, not replaced.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnCli } from '../api/cli-process';
import { beacon, cleanups, json, render, runCleanups, serve, tempDir } from './fault-helpers';
import { unseal } from '../../src/main/store/record-seal';

afterEach(runCleanups);

interface Listed {
  events: Array<{ id: string; seq: number }>;
}

interface Health {
  warnings: string[];
}

/** A data dir whose journal holds `count` beacons, written and closed cleanly (SIGTERM). */
async function journalOf(count: number): Promise<{ dir: string; data: string; file: string }> {
  const dir = tempDir('journal-tail-');
  const data = path.join(dir, 'data');
  const first = await serve(data, dir);
  for (let i = 1; i <= count; i++)
    expect((await beacon(first.url, render(`p-${i}`))).status).toBe(200);
  first.child.kill('SIGTERM');
  expect(await first.exit).toBe(0);
  return { dir, data, file: path.join(data, 'events.ndjson') };
}

describe('a damaged end of the journal', () => {
  it('zeroed: says which seqs may be lost, keeps the bytes aside, and never hands an id out twice', async () => {
    const { dir, data, file } = await journalOf(100);
    const size = statSync(file).size;
    const text = readFileSync(file);
    text.fill(0, size - 4096);
    writeFileSync(file, text);
    const intact = text
      .subarray(0, size - 4096)
      .toString('utf8')
      .split('\n')
      .slice(0, -1)
      .map((l) => unseal(l).text)
      .filter((l) => l.startsWith('{"id"'))
      .map((l) => (JSON.parse(l) as { seq: number }).seq);
    const last = intact.at(-1)!;

    const second = await serve(data, dir);
    const health = await json<Health>(fetch(`${second.url}/_sandbox/health`));
    const warning = health.warnings.find((w) => w.includes('zeroed disk block'));
    expect(warning, JSON.stringify(health.warnings)).toMatch(
      new RegExp(`up to \\d+ bytes of records are lost, seqs from ${last + 1} on`),
    );
    expect(warning).toMatch(/kept in \S+events\.ndjson\.damaged-/);
    const aside = readdirSync(data).filter((n) => n.startsWith('events.ndjson.damaged-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(path.join(data, aside[0]!)).includes(Buffer.alloc(64))).toBe(true);
    expect((await beacon(second.url, render('p-after'))).status).toBe(200);
    const listed = await json<Listed>(fetch(`${second.url}/_sandbox/events?limit=1`));
    // every seq up to the last one written before the damage (100) was handed out once already
    expect(listed.events[0]!.seq).toBeGreaterThan(100);
    await second.kill();

    const third = await serve(data, dir);
    const again = await json<Health>(fetch(`${third.url}/_sandbox/health`));
    expect(again.warnings.join('\n')).toContain(aside[0]);
    expect((await beacon(third.url, render('p-third'))).status).toBe(200);
    const seqs = (await json<Listed>(fetch(`${third.url}/_sandbox/events?limit=1000`))).events.map(
      (e) => e.seq,
    );
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs.at(-1)).toBeGreaterThan(seqs.at(-2)!);
    await third.kill();
  });

  it('nothing but zeros: the sandbox does not start, and changes nothing', async () => {
    const { dir, data, file } = await journalOf(3);
    writeFileSync(file, Buffer.alloc(48 * 1024));
    const cli = spawnCli(['serve', '--port', '0', '--data', data], dir);
    cleanups.push(() => cli.kill());
    expect(await cli.exit).toBe(1);
    expect(cli.stderr()).toMatch(
      /cannot start: \S+events\.ndjson holds only zero bytes \(49152\).*move it away/,
    );
    expect(readFileSync(file).equals(Buffer.alloc(48 * 1024))).toBe(true);
    expect(existsSync(path.join(data, 'sandbox.lock'))).toBe(false);
  });
});
