// A damaged record in the middle of the journal (a seq corrupted upwards, caught by the line's checksum; a
// field corrupted into invalid JSON): after a restart every intact record is there, the damaged ones are named on the start-up lines,
// and new events continue after the last intact seq.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { beacon, json, render, runCleanups, serve, tempDir } from './fault-helpers';

afterEach(runCleanups);

interface Listed {
  events: Array<{ seq: number; body: { context: { pageLoadId: string } } }>;
}

describe('a damaged record', () => {
  it('is skipped and named at start, and every intact record after it is kept', async () => {
    const dir = tempDir('damaged-record-');
    const data = path.join(dir, 'data');
    const first = await serve(data, dir);
    for (let i = 1; i <= 20; i++)
      expect((await beacon(first.url, render(`p-${i}`))).status).toBe(200);
    await first.kill();

    const file = path.join(data, 'events.ndjson');
    const lines = readFileSync(file, 'utf8').split('\n'); // lines[0]: the header
    lines[10] = lines[10]!.replace('"seq":10,', '"seq":9000000,');
    lines[15] = lines[15]!.replace('"accepted":true', '"accepted":tr#e');
    writeFileSync(file, lines.join('\n'));

    const second = await serve(data, dir);
    await second.stderrMatching(/line 16/);
    // the line carries its checksum: the changed value is caught by it, whatever it changed into
    expect(second.stderr()).toMatch(
      /line 11: its checksum is [0-9a-f]{8}, not the [0-9a-f]{8} it was written with: its bytes changed on disk since \(it reads as event ev_000000010, seq 9000000, not to be trusted: not loaded/,
    );
    expect(second.stderr()).toMatch(/line 16: not valid JSON/);
    const after = await json<Listed>(fetch(`${second.url}/_sandbox/events`));
    const kept = after.events.map((e) => e.body.context.pageLoadId);
    expect(kept).toEqual(
      Array.from({ length: 20 }, (_, i) => `p-${i + 1}`).filter(
        (p) => p !== 'p-10' && p !== 'p-15',
      ),
    );
    expect((await beacon(second.url, render('p-21'))).status).toBe(200);
    const newest = await json<Listed>(fetch(`${second.url}/_sandbox/events?limit=1`));
    expect(newest.events[0]!.seq).toBe(21);
  });
});
