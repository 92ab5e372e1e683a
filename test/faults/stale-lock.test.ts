// A lock file left behind that names a live process which is not a sandbox (after a reboot, pid 1 or
// any other): `serve` takes the data directory over instead of refusing to start as "another sandbox".
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { beacon, cleanups, render, runCleanups, serve, tempDir } from './fault-helpers';

afterEach(runCleanups);

describe.skipIf(process.platform !== 'linux')(
  'a stale lock naming an unrelated live process',
  () => {
    it('does not block start, and what was stored before is still there', async () => {
      const dir = tempDir('stale-lock-');
      const data = path.join(dir, 'data');
      const first = await serve(data, dir);
      expect((await beacon(first.url, render('p-before'))).status).toBe(200);
      await first.kill(); // kill -9 leaves its lock behind

      const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
      cleanups.push(() => void sleeper.kill('SIGKILL'));
      await new Promise((resolve) => sleeper.once('spawn', resolve));
      mkdirSync(data, { recursive: true });
      writeFileSync(path.join(data, 'sandbox.lock'), `${sleeper.pid}\n`);
      const second = await serve(data, dir);
      expect(readFileSync(path.join(data, 'sandbox.lock'), 'utf8').split('\n')[0]).toBe(
        String(second.child.pid),
      );
      const listed = (await (await fetch(`${second.url}/_sandbox/events`)).json()) as {
        events: Array<{ body: { context: { pageLoadId: string } } }>;
      };
      expect(listed.events.map((e) => e.body.context.pageLoadId)).toEqual(['p-before']);
    });
  },
);

describe('a lock file that names no process', () => {
  it('is taken over, and the start says so', async () => {
    const dir = tempDir('garbage-lock-');
    const data = path.join(dir, 'data');
    mkdirSync(data, { recursive: true });
    writeFileSync(path.join(data, 'sandbox.lock'), 'not a pid\n');
    const sandbox = await serve(data, dir);
    expect(sandbox.stderr()).toMatch(/sandbox\.lock names no process \("not a pid"\): taken over/);
    expect(readFileSync(path.join(data, 'sandbox.lock'), 'utf8').split('\n')[0]).toBe(
      String(sandbox.child.pid),
    );
  });
});
