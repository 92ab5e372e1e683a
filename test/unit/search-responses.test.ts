// The memory of issued search responses: bounded (oldest forgotten, and from when it is complete moves on),
// mirrored to the data dir so a restart keeps judging replayed beacons, cleared per site.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { IssuedResponses, type IssuedResponse } from '../../src/main/search/responses';
import { tempDir } from '../helpers/sandbox';

const T = Date.parse('2026-11-21T05:00:00Z');
const rec = (responseId: string, issuedAt: number, siteId = 'shop01'): IssuedResponse => ({
  responseId,
  siteId,
  query: 'q',
  page: 1,
  perPage: 24,
  issuedAt,
  results: [],
  inline: [],
  slots: { header: [], banner: [], footer: [], left: [] },
  redirect: null,
  test: true,
});

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('issued responses', () => {
  it('keeps at most `limit` responses; the memory is complete only from the oldest kept one on', async () => {
    const { responses } = await IssuedResponses.open(null, T, 3);
    for (let i = 0; i < 5; i++) await responses.add(rec(`r${i}`, T + i * 1000));
    expect(responses.size).toBe(3);
    expect(responses.get('r0')).toBeUndefined();
    expect(responses.get('r4')).toBeDefined();
    expect(responses.rememberedSince).toBe(T + 2000);
    expect([...responses.recent('shop01')].map((r) => r.responseId)).toEqual(['r4', 'r3', 'r2']);
  });

  it('survives a restart with a data dir, compacts its file, and forgets one site on clear', async () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    const first = await IssuedResponses.open(tmp.dir, T, 2);
    for (let i = 0; i < 6; i++)
      await first.responses.add(rec(`r${i}`, T + i, i % 2 ? 'other1' : 'shop01'));
    await first.responses.close();
    const file = path.join(tmp.dir, 'search-responses.ndjson');
    expect(readFileSync(file, 'utf8').trim().split('\n').length).toBeLessThanOrEqual(5);

    const second = await IssuedResponses.open(tmp.dir, T + 10_000, 2);
    expect(second.warnings).toEqual([]);
    expect(second.responses.get('r5')?.siteId).toBe('other1');
    expect(second.responses.get('r4')?.siteId).toBe('shop01');
    expect(second.responses.rememberedSince).toBe(T + 4);
    await second.responses.clear('other1');
    expect(second.responses.get('r5')).toBeUndefined();
    await second.responses.close();

    const kept = readFileSync(file, 'utf8');
    const lines = kept.split('\n').length; // the line after the last newline
    writeFileSync(file, `${kept}xx\n{"responseId": "torn`);
    const third = await IssuedResponses.open(tmp.dir, T + 20_000, 2);
    expect(third.warnings).toEqual([
      `search responses ${file}, line ${lines}: not valid JSON (a damaged line); skipped ("xx")`,
      `search responses ${file}, line ${lines + 1}: an incomplete record at the end of the file (the process stopped while writing it); skipped ("{\\"responseId\\": \\"torn")`,
    ]);
    expect(third.responses.get('r4')).toBeDefined();
    await third.responses.close();
  });
});

describe('restoring responses from an export', () => {
  it('takes {responses: [...]} newest first, and refuses anything else naming the entry', async () => {
    const { responses } = await IssuedResponses.open(null, T, 2);
    expect(
      await responses.importAll({
        responses: [rec('new', T + 2), rec('mid', T + 1), rec('old', T)],
      }),
    ).toBe(3);
    expect(responses.list().map((r) => r.responseId)).toEqual(['new', 'mid']);
    await expect(
      responses.importAll({ responses: [rec('ok', T), { responseId: 7 }] }),
    ).rejects.toThrow('responses[1] is not an issued search response');
    await expect(responses.importAll([])).rejects.toThrow('expected {"responses": [...]}');
  });
});
