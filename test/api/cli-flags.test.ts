// Flags as the real CLI reads them: a single-value flag given twice is refused naming it and both values,
// never the last one taken silently (repeatable flags such as --rule stay repeatable); `tail --site`
// is checked as a siteId before anything connects.
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from './cli-process';

beforeAll(() => {
  if (!existsSync(CLI))
    throw new Error(`${CLI} is missing: run "npx electron-vite build" first (npm test does)`);
});

describe('a single-value flag given twice', () => {
  it('serve: refused, naming the flag and both values', async () => {
    const r = await runCli(['serve', '--port=0', '--ephemeral', '--port=1'], process.cwd());
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'search-sandbox: --port is given twice, as "0" and as "1": give it once, with the value you mean (search-sandbox serve --help)\n',
    );
  });

  it('check and diff: refused as serve refuses it', async () => {
    const check = await runCli(
      ['check', '--format', 'json', 'x.ndjson', '--format', 'text'],
      process.cwd(),
    );
    expect(check.code).toBe(2);
    expect(check.stderr.split('\n')[0]).toBe(
      'search-sandbox check: --format is given twice, as "json" and as "text": give it once, with the value you mean',
    );
    const diff = await runCli(
      ['diff', 'a.json', 'b.json', '--format=json', '--format', 'json'],
      process.cwd(),
    );
    expect(diff.code).toBe(2);
    expect(diff.stderr.split('\n')[0]).toBe(
      'search-sandbox diff: --format is given twice, as "json" and as "json": give it once, with the value you mean',
    );
  });

  it('a repeatable flag stays repeatable', async () => {
    const r = await runCli(
      ['check', '--rule', 'no-impression=off', '--rule', 'timestamp-skew=info', 'missing.ndjson'],
      process.cwd(),
    );
    expect(r.stderr).not.toMatch(/given twice/);
  });
});

describe('tail --site', () => {
  it('is checked as a siteId before it connects', async () => {
    // a port nothing listens on: a connection attempt would say "cannot reach"
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise((r) => probe.close(r));
    const r = await runCli(
      ['tail', '--url', `http://127.0.0.1:${port}`, '--site', 'BAD!'],
      process.cwd(),
    );
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      'search-sandbox tail: --site "BAD!" is not a siteId (six lowercase letters or digits, e.g. demo42): give the site whose beacons to show, or leave --site out for every site',
    );
  });
});
