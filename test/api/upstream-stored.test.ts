// The real service's answer to a forwarded beacon is told on the stream (`upstream`) only once it is in
// the data directory's answers file: a client that saw it finds it on its event after a restart.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamMessage } from '../../src/shared/stream';
import { postBeacon, tempDir } from '../helpers/sandbox';
import { startFakeUpstream } from '../helpers/fake-upstream';
import { SITE, beacon, startPassThrough } from '../helpers/pass-through';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('an upstream answer on the stream', () => {
  it('is told once the answers file holds it', async () => {
    const fake = await startFakeUpstream();
    cleanups.push(() => fake.close());
    const { dir, cleanup } = tempDir('upstream-stored-');
    cleanups.push(cleanup);
    const sb = await startPassThrough(
      { tracking: { forward: `${fake.url}/beacon/v2` } },
      { dataDir: dir },
    );
    cleanups.push(() => sb.close());
    const file = path.join(dir, 'upstream.ndjson');
    const told: Array<{ eventId: string; stored: boolean }> = [];
    let heard!: () => void;
    const answered = new Promise<void>((resolve) => (heard = resolve));
    cleanups.push(
      sb.core.bus.on((message: StreamMessage) => {
        if (message.type !== 'upstream') return;
        const { eventId } = message.data as { eventId: string };
        const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
        told.push({ eventId, stored: text.includes(`"eventId":"${eventId}"`) });
        heard();
      }),
    );
    const res = await postBeacon(
      sb.url,
      `${SITE}/search/render`,
      beacon('up-1', { responseId: 'r1' }),
    );
    expect(res.status).toBe(200);
    await answered;
    expect(told).toEqual([{ eventId: expect.any(String), stored: true }]);
  });
});
