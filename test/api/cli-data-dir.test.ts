// `serve` on a data directory it cannot use, as a real process: one line naming the file, the cause and
// the fix on stderr, exit 1, no stack trace, no lock left behind, and every file as it was, byte for byte.
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postBeacon, tempDir } from '../helpers/sandbox';
import { CLI, runCli, spawnCli, unprivileged, type RunAs } from './cli-process';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function dir(): string {
  const t = tempDir('cli-data-dir-');
  cleanups.push(t.cleanup);
  return t.dir;
}

/** A data directory a real sandbox wrote: journal, indexing.json, search responses, catalogs. */
let template: string;

beforeAll(async () => {
  if (!existsSync(CLI))
    throw new Error(`${CLI} is missing: run "npx electron-vite build" first (npm test does)`);
  const t = tempDir('cli-data-dir-template-');
  template = path.join(t.dir, 'data');
  // a umask that would leave files readable by everyone: the sandbox's modes must not depend on it
  const cli = spawnCli(['serve', '--port', '0', '--data', template], t.dir, {}, { umask: 0o002 });
  const url = await cli.ready;
  const body = {
    context: {
      timestamp: new Date().toISOString(),
      pageUrl: 'http://localhost:5173/search?q=shirt',
      userId: 'u',
      sessionId: 's',
      pageLoadId: 'p',
      initiator: 'data-dir-test',
    },
    data: { responseId: 'r1' },
  };
  expect((await postBeacon(url, 'demo42/search/render', body)).status).toBe(200);
  expect((await fetch(`${url}/api/search/search.json?siteId=demo42&q=&beacon=true`)).status).toBe(
    200,
  );
  cli.child.kill('SIGTERM');
  expect(await cli.exit).toBe(0);
  expect(readdirSync(template).sort()).toEqual(
    expect.arrayContaining(['events.ndjson', 'indexing.json', 'search-responses.ndjson']),
  );
  return t.cleanup;
});

/** A copy of the template in a fresh working directory. */
function copyOfData(): { cwd: string; data: string } {
  const cwd = dir();
  const data = path.join(cwd, 'data');
  cpSync(template, data, { recursive: true });
  return { cwd, data };
}

/** Every entry under `root` with its bytes (or link target), to prove nothing was written or deleted. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (p: string, rel: string) => {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) out[rel] = `link → ${readlinkSync(p)}`;
    else if (st.isDirectory()) {
      out[`${rel}/`] = 'dir';
      for (const name of readdirSync(p)) walk(path.join(p, name), `${rel}/${name}`);
    } else {
      try {
        out[rel] = readFileSync(p).toString('base64');
      } catch {
        out[rel] = `unreadable, ${st.size} bytes, mode ${st.mode.toString(8)}`;
      }
    }
  };
  walk(root, '.');
  return out;
}

const HANG_MS = 15_000;

/** Start `serve` on `data`; it must fail in one stderr line with exit 1 and leave `data` as it was. */
async function refusesToStart(
  cwd: string,
  data: string,
  runAs: RunAs = {},
  args: string[] = [],
): Promise<string> {
  const before = snapshot(data);
  // a start-up that hangs fails this test, not the run: killed after HANG_MS
  const cli = spawnCli(['serve', '--port', '0', '--data', data, ...args], cwd, {}, runAs);
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    void cli.kill();
  }, HANG_MS);
  const code = await cli.exit.finally(() => clearTimeout(timer));
  const [stdout, stderr] = [cli.stdout(), cli.stderr()];
  expect(hung, `still running after ${HANG_MS} ms, printing: ${stdout}${stderr}`).toBe(false);
  const lines = stderr.split('\n').filter(Boolean);
  expect(lines, stderr).toHaveLength(1);
  expect(code).toBe(1);
  expect(stdout).toBe('');
  expect(lines[0]).toMatch(/^search-sandbox: cannot start: /);
  expect(lines[0]).not.toMatch(/\n\s+at |unexpected error/);
  expect(existsSync(path.join(data, 'sandbox.lock'))).toBe(false);
  expect(snapshot(data)).toEqual(before);
  return lines[0]!;
}

describe('the data directory is private', () => {
  it('is created 0700 with every directory in it 0700 and every file 0600, whatever the umask', () => {
    const modes: Record<string, string> = {};
    const walk = (p: string, rel: string) => {
      const st = lstatSync(p);
      modes[rel] = (st.mode & 0o777).toString(8);
      if (st.isDirectory())
        for (const name of readdirSync(p)) walk(path.join(p, name), `${rel}/${name}`);
    };
    walk(template, '.');
    expect(Object.keys(modes)).toEqual(
      expect.arrayContaining(['./events.ndjson', './indexing.json', './catalogs']),
    );
    for (const [rel, mode] of Object.entries(modes))
      expect(`${rel} ${mode}`).toBe(
        `${rel} ${lstatSync(path.join(template, rel)).isDirectory() ? '700' : '600'}`,
      );
  });

  it('a directory the user made open to others is used as it is, with a warning saying how to close it', async () => {
    const cwd = dir();
    const data = path.join(cwd, 'mine');
    mkdirSync(data, { mode: 0o755 });
    chmodSync(data, 0o755);
    const cli = spawnCli(['serve', '--port', '0', '--data', data], cwd);
    cleanups.push(() => cli.kill());
    await cli.ready;
    expect(await cli.stderrMatching(/chmod 700/)).toContain(
      `data directory ${data} can be read by other users (mode 0755) and holds shoppers' ids and page URLs: chmod 700 ${data} to keep it private`,
    );
    expect(lstatSync(data).mode & 0o777).toBe(0o755);
    expect(lstatSync(path.join(data, 'events.ndjson')).mode & 0o777).toBe(0o600);
  });
});

describe('serve on a data directory it cannot use', () => {
  it('damaged indexing.json: names it and the JSON error, and starts with all data once it is fixed', async () => {
    const { cwd, data } = copyOfData();
    const file = path.join(data, 'indexing.json');
    const good = readFileSync(file);
    writeFileSync(file, good.subarray(0, good.length - 5));
    const line = await refusesToStart(cwd, data);
    expect(line).toContain(`${file} is not valid JSON (`);
    expect(line).toMatch(
      /\): fix it, or move it away to start the feeds and the outbox again from the fixtures \(the sandbox changed nothing\)$/,
    );

    writeFileSync(file, good);
    const cli = spawnCli(['serve', '--port', '0', '--data', data], cwd);
    cleanups.push(() => cli.kill());
    const url = await cli.ready;
    const events = (await (await fetch(`${url}/_sandbox/events`)).json()) as { events: unknown[] };
    expect(events.events).toHaveLength(1);
  });

  it('indexing.json that is JSON but not the sandbox’s, empty, or a directory', async () => {
    const { cwd, data } = copyOfData();
    const file = path.join(data, 'indexing.json');
    writeFileSync(file, JSON.stringify({ version: 2, feeds: [] }));
    expect(await refusesToStart(cwd, data)).toContain(
      `${file} is not a search-sandbox indexing file ("version" is 2, expected 1): fix it`,
    );
    writeFileSync(file, '');
    expect(await refusesToStart(cwd, data)).toContain(`${file} is empty: fix it`);
    rmSync(file);
    mkdirSync(file);
    expect(await refusesToStart(cwd, data)).toContain(
      `${file} is a directory where the sandbox keeps a file (EISDIR): move that directory away, or use another data directory (--data DIR or SEARCH_SANDBOX_DATA), or --ephemeral`,
    );
  });

  it('a journal the process cannot write', async () => {
    const { cwd, data } = copyOfData();
    const file = path.join(data, 'events.ndjson');
    chmodSync(file, 0o444);
    expect(await refusesToStart(cwd, data, unprivileged)).toBe(
      `search-sandbox: cannot start: ${file} cannot be written: permission denied (EACCES): give the user running the sandbox read and write access to ${data}, or use another data directory (--data DIR or SEARCH_SANDBOX_DATA), or --ephemeral to keep everything in memory`,
    );
  });

  it('a journal that is a directory', async () => {
    const { cwd, data } = copyOfData();
    const file = path.join(data, 'events.ndjson');
    rmSync(file);
    mkdirSync(file);
    expect(await refusesToStart(cwd, data)).toContain(
      `${file} is a directory where the sandbox keeps a file (EISDIR)`,
    );
  });

  it('a file where the catalogs directory should be', async () => {
    const { cwd, data } = copyOfData();
    const catalogs = path.join(data, 'catalogs');
    rmSync(catalogs, { recursive: true, force: true });
    writeFileSync(catalogs, 'not a directory');
    expect(await refusesToStart(cwd, data)).toContain(
      `${catalogs} is a file where the sandbox needs a directory (ENOTDIR): move that file away`,
    );
  });

  it('a read-only data directory', async () => {
    const { cwd, data } = copyOfData();
    chmodSync(data, 0o555);
    cleanups.push(() => chmodSync(data, 0o755));
    expect(await refusesToStart(cwd, data, unprivileged)).toContain(
      `${path.join(data, 'sandbox.lock')} cannot be written: permission denied (EACCES): give the user running the sandbox read and write access to ${data}`,
    );
  });

  it('an unreadable file of search responses is reported, not replaced', async () => {
    const { cwd, data } = copyOfData();
    const file = path.join(data, 'search-responses.ndjson');
    chmodSync(file, 0o200);
    expect(await refusesToStart(cwd, data, unprivileged)).toContain(
      `${file} cannot be read: permission denied (EACCES)`,
    );
  });

  it('a full disk while writing indexing.json (the kernel’s ENOSPC from /dev/full)', async () => {
    const { cwd, data } = copyOfData();
    // indexing.json is written through a temp file beside it: make that one land on /dev/full
    symlinkSync('/dev/full', path.join(data, '.indexing.json.tmp'));
    expect(await refusesToStart(cwd, data)).toContain(
      `${path.join(data, 'indexing.json')} cannot be written: the disk is full (ENOSPC): free some space on that disk`,
    );
  });

  it('a directory that cannot be made where mkdir says a parent is missing (/proc): one line, not a hang', async () => {
    // Node's recursive mkdir looped for ever on /proc/…, with no word and 70% of a core
    const { code, stderr } = await runCli(
      ['serve', '--port', '0', '--data', '/proc/no-sandbox-here'],
      dir(),
    );
    expect(code).toBe(1);
    expect(stderr).toBe(
      'search-sandbox: cannot start: /proc/no-sandbox-here cannot be written (ENOENT: no such file or directory): check the file and its directory, or use another data directory (--data DIR or SEARCH_SANDBOX_DATA), or --ephemeral to keep everything in memory\n',
    );
  });

  it('a file given as the data directory, or in its path', async () => {
    const cwd = dir();
    writeFileSync(path.join(cwd, 'a-file'), 'not a directory');
    const { code, stderr } = await runCli(['serve', '--data', 'a-file'], cwd);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `${path.join(cwd, 'a-file')} is a file where the sandbox needs a directory (ENOTDIR)`,
    );
  });

  it('a file where the data directory should be', async () => {
    const cwd = dir();
    writeFileSync(path.join(cwd, 'a-file'), 'not a directory');
    const { code, stderr } = await runCli(['serve', '--data', 'a-file/data'], cwd);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `search-sandbox: cannot start: ${path.join(cwd, 'a-file')} is a file where the sandbox needs a directory (ENOTDIR): move that file away, or use another data directory (--data DIR or SEARCH_SANDBOX_DATA), or --ephemeral to keep everything in memory\n`,
    );
    expect(readFileSync(path.join(cwd, 'a-file'), 'utf8')).toBe('not a directory');
  });

  it('a kept HTTPS certificate that is not one (--https-port): names its folder and the fix, no stack', async () => {
    const { cwd, data } = copyOfData();
    const tls = path.join(data, 'tls');
    mkdirSync(tls, { mode: 0o700 });
    writeFileSync(path.join(tls, 'key.pem'), 'not a key\n', { mode: 0o600 });
    writeFileSync(path.join(tls, 'cert.pem'), 'not a certificate\n', { mode: 0o600 });
    expect(await refusesToStart(cwd, data, {}, ['--https-port', '0'])).toBe(
      `search-sandbox: cannot start: ${tls} holds a key.pem and cert.pem HTTPS cannot use (PEM routines: no start line): move that folder away and the sandbox makes a new self-signed pair there, or put a matching PEM key and certificate in it`,
    );
  });

  it('a lock held by a live sandbox: names the lock file and the pid, and leaves that lock alone', async () => {
    const { cwd, data } = copyOfData();
    const first = spawnCli(['serve', '--port', '0', '--data', data], cwd);
    cleanups.push(() => first.kill());
    await first.ready;
    const lock = path.join(data, 'sandbox.lock');
    const { code, stdout, stderr } = await runCli(['serve', '--port', '0', '--data', data], cwd);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `search-sandbox: cannot start: ${lock} says data directory ${data} is in use by another sandbox (pid ${first.child.pid}, still running): stop that one, or use another data directory (--data DIR or SEARCH_SANDBOX_DATA), or --ephemeral to keep everything in memory\n`,
    );
    expect(readFileSync(lock, 'utf8').split('\n')[0]).toBe(String(first.child.pid));
  });
});

describe('serve on a hand-edited or damaged indexing.json or catalog', () => {
  const KEEP =
    'correct that value, or move the file away to start the feeds and the outbox again from the fixtures (the sandbox changed nothing)';

  /** A copy of the data whose indexing.json has feed 42 as while it indexes (waiting, with its run), then `edit`ed. */
  function withFeed42(edit: (rec: Record<string, unknown>) => void) {
    const { cwd, data } = copyOfData();
    const file = path.join(data, 'indexing.json');
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    const i = stored.feeds.findIndex((f: { feedId: number }) => f.feedId === 42);
    const now = Date.now();
    const run = { id: 'run_1', cause: 'api', requestedBy: null, requestedAt: now, input: 'upload' };
    Object.assign(stored.feeds[i], { state: 'waiting', stepStartedAt: now, run });
    edit(stored.feeds[i]);
    writeFileSync(file, JSON.stringify(stored));
    return { cwd, data, file, at: `feeds[${i}]` };
  }

  it.each(['exploded', 'DONE', null])(
    'a feed state it does not know (%j): one line naming the field, the value and the states, not a hang',
    async (state) => {
      const { cwd, data, file, at } = withFeed42((rec) => (rec.state = state));
      expect(await refusesToStart(cwd, data)).toBe(
        `search-sandbox: cannot start: ${file} has ${at}.state ${JSON.stringify(state)} (feed demo42/42), which must be one of "waiting", "running", "done", "error", "regen_waiting", "regen_running", "regen_done", "regen_error", "paused": ${KEEP}`,
      );
    },
  );

  it.each([
    ['lastIndexed', 'yesterday'],
    ['lastIndexed', 1e308],
    ['stepStartedAt', null],
    ['lastAcceptedAt', '2026-12-01'],
  ])('a time that is no time (%s %j): one line, no stack, no lock left', async (field, value) => {
    const { cwd, data, file, at } = withFeed42((rec) => (rec[field] = value));
    const rule =
      field === 'stepStartedAt'
        ? 'a time in ms since 1970 (e.g. 1796086800000) while the feed is "waiting": when its step started'
        : 'a time in ms since 1970 (e.g. 1796086800000) or null';
    expect(await refusesToStart(cwd, data)).toBe(
      `search-sandbox: cannot start: ${file} has ${at}.${field} ${JSON.stringify(value)} (feed demo42/42), which must be ${rule}: ${KEEP}`,
    );
  });

  it('a run, an override or a history entry of the wrong shape is named by its path', async () => {
    let c = withFeed42((rec) => ((rec.run as Record<string, unknown>).input = 'disk'));
    expect(await refusesToStart(c.cwd, c.data)).toContain(
      `${c.file} has ${c.at}.run.input "disk" (feed demo42/42), which must be "upload" or "cart": ${KEEP}`,
    );
    c = withFeed42((rec) => (rec.overrides = { autopilot: 'yes' }));
    expect(await refusesToStart(c.cwd, c.data)).toContain(
      `${c.file} has ${c.at}.overrides.autopilot "yes" (feed demo42/42), which must be true or false (or left out): ${KEEP}`,
    );
    c = withFeed42((rec) => (rec.history = [42]));
    expect(await refusesToStart(c.cwd, c.data)).toContain(
      `${c.file} has ${c.at}.history[0] 42 (feed demo42/42), which must be an object`,
    );
  });

  /** A copy of the data whose indexing.json holds one mail in its outbox and one status read, then `edit`ed. */
  function withMailAndRead(edit: (stored: Record<string, unknown>) => void) {
    const { cwd, data } = copyOfData();
    const file = path.join(data, 'indexing.json');
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    stored.outbox = [
      {
        id: 'mail_000001',
        at: '2026-12-01T10:00:00.000Z',
        to: 'ops@shop.example',
        from: 'search-sandbox@localhost',
        subject: 'Index of feed 42 done',
        text: 'done',
        siteId: 'demo42',
        feedId: 42,
        outcome: 'done',
        delivery: { status: 'not-configured', error: null, at: null },
      },
    ];
    stored.statusReads = { demo42: { at: Date.now(), seen: { '42': 'done', '43': 'waiting' } } };
    edit(stored);
    writeFileSync(file, JSON.stringify(stored));
    return { cwd, data, file };
  }

  it('an outbox mail and a status read as the sandbox writes them start', async () => {
    const { cwd, data } = withMailAndRead(() => undefined);
    const cli = spawnCli(['serve', '--port', '0', '--data', data], cwd);
    cleanups.push(() => cli.kill());
    const url = await cli.ready;
    const outbox = (await (await fetch(`${url}/_sandbox/outbox`)).json()) as unknown;
    expect(JSON.stringify(outbox)).toContain('mail_000001');
  });

  it.each([
    [
      'a mail that is no object',
      (s: Record<string, unknown>) => (s.outbox = [42]),
      'outbox[0] 42, which must be an object',
    ],
    [
      'a mail without its recipient',
      (s: Record<string, unknown>) => delete (s.outbox as Array<Record<string, unknown>>)[0]!.to,
      'outbox[0].to missing (feed demo42/42), which must be a string',
    ],
    [
      'a mail whose delivery status is unknown',
      (s: Record<string, unknown>) =>
        ((s.outbox as Array<{ delivery: { status: string } }>)[0]!.delivery.status = 'lost'),
      'outbox[0].delivery.status "lost" (feed demo42/42), which must be one of "not-configured", "pending", "sent", "failed"',
    ],
    [
      'a mail of a feed id that is no id',
      (s: Record<string, unknown>) =>
        ((s.outbox as Array<Record<string, unknown>>)[0]!.feedId = '42'),
      'outbox[0].feedId "42", which must be a whole number >= 1',
    ],
    [
      'a status read that is no object',
      (s: Record<string, unknown>) => (s.statusReads = { demo42: 'today' }),
      'statusReads.demo42 "today", which must be an object',
    ],
    [
      'a status read whose time is no time',
      (s: Record<string, unknown>) =>
        ((s.statusReads as Record<string, { at: unknown }>).demo42!.at = 'noon'),
      'statusReads.demo42.at "noon", which must be a time in ms since 1970 (e.g. 1796086800000)',
    ],
    [
      'a status read of a status that is none',
      (s: Record<string, unknown>) =>
        ((s.statusReads as Record<string, { seen: Record<string, unknown> }>).demo42!.seen['42'] =
          'finished'),
      'statusReads.demo42.seen.42 "finished", which must be one of "waiting", "running", "done", "error", "regen_waiting", "regen_running", "regen_done", "regen_error"',
    ],
  ])('%s: one line naming the field, its value and the rule', async (_name, edit, problem) => {
    const { cwd, data, file } = withMailAndRead(edit);
    expect(await refusesToStart(cwd, data)).toBe(
      `search-sandbox: cannot start: ${file} has ${problem}: ${KEEP}`,
    );
  });

  it('the feed as while it indexes starts, and runs on', async () => {
    const { cwd, data } = withFeed42(() => undefined);
    const cli = spawnCli(['serve', '--port', '0', '--data', data], cwd);
    cleanups.push(() => cli.kill());
    const url = await cli.ready;
    const feed = (await (await fetch(`${url}/_sandbox/feeds/demo42/42`)).json()) as {
      state: string;
    };
    expect(['waiting', 'running', 'error', 'done']).toContain(feed.state);
  });

  /** The start-up's warnings and a feed's state, catalog page and the beacon answer of a sandbox on `data`. */
  async function startedOn(cwd: string, data: string, feedId: number) {
    const cli = spawnCli(['serve', '--port', '0', '--data', data], cwd);
    cleanups.push(() => cli.kill());
    const url = await cli.ready;
    const health = (await (await fetch(`${url}/_sandbox/health`)).json()) as { warnings: string[] };
    const feed = (await (await fetch(`${url}/_sandbox/feeds/demo42/${feedId}`)).json()) as {
      state: string;
      products: number;
      lastIndexed: string | null;
      lastRun: { error: string | null } | null;
      history: Array<{ kind: string; cause: string; detail: string; to?: string }>;
    };
    const catalog = (await (
      await fetch(`${url}/_sandbox/feeds/demo42/${feedId}/catalog`)
    ).json()) as { total: number };
    const beacon = await postBeacon(url, 'demo42/search/render', {
      context: {
        timestamp: new Date().toISOString(),
        pageUrl: 'http://localhost:5173/search?q=shirt',
        userId: 'u',
        sessionId: 's',
        pageLoadId: 'p2',
        initiator: 'data-dir-test',
      },
      data: { responseId: 'r2' },
    });
    return { cli, url, warnings: health.warnings, feed, catalog, beacon: beacon.status };
  }

  it('a catalog with a damaged line: the sandbox starts, that feed says why, the file is left as it is', async () => {
    const { cwd, data } = copyOfData();
    const file = path.join(data, 'catalogs', 'demo42-43.ndjson');
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.length).toBeGreaterThan(4);
    lines[3] = lines[3]!.replace('{"', '{!"');
    writeFileSync(file, lines.join('\n'));
    const damaged = readFileSync(file);
    const why = new RegExp(
      `^its catalog of 12 products cannot be read: ${file} line 4 is not a product \\(Expected property name[^)]*\\): that catalog is not served, and the file is left as it is; index feed 43 of demo42 again \\(its next index replaces the file\\), or move the file away$`,
    );
    const first = await startedOn(cwd, data, 43);
    // tracking has nothing to do with that catalog
    expect(first.beacon).toBe(200);
    expect(first.feed).toMatchObject({ state: 'error', products: 0, lastIndexed: null });
    expect(first.feed.lastRun?.error).toMatch(why);
    expect(first.feed.history.at(-1)).toMatchObject({
      kind: 'transition',
      to: 'error',
      cause: 'sandbox',
    });
    expect(first.catalog.total).toBe(0);
    expect(first.warnings.filter((w) => w.includes(file))).toEqual([
      expect.stringMatching(new RegExp(`^feed 43 of demo42: ${why.source.slice(1)}`)),
    ]);
    // the other feeds are as they were
    const other = (await (await fetch(`${first.url}/_sandbox/feeds/demo42/42`)).json()) as {
      state: string;
    };
    expect(other.state).toBe('done');
    await first.cli.kill();
    expect(readFileSync(file)).toEqual(damaged);
    // while the file is there, each start says so; the feed stays in error
    const second = await startedOn(cwd, data, 43);
    expect(second.feed).toMatchObject({ state: 'error', products: 0 });
    expect(second.warnings.filter((w) => w.includes(file))).toEqual([
      `feed 43 of demo42: ${file} ${/line 4 is not a product \([^)]*\)/.exec(first.feed.lastRun!.error!)![0]}: that catalog is not served, and the file is left as it is; index feed 43 of demo42 again (its next index replaces the file), or move the file away`,
    ]);
    await second.cli.kill();
    expect(readFileSync(file)).toEqual(damaged);
  });

  it('a catalog header whose landing is no number: the feed says which file, field and value', async () => {
    const { cwd, data } = copyOfData();
    const file = path.join(data, 'catalogs', 'demo42-43.ndjson');
    const lines = readFileSync(file, 'utf8').split('\n');
    const header = JSON.parse(lines[0]!);
    expect(header.landing).toBeGreaterThanOrEqual(1);
    lines[0] = JSON.stringify({ ...header, landing: 'first' });
    writeFileSync(file, lines.join('\n'));
    const { feed, warnings } = await startedOn(cwd, data, 43);
    expect(feed.lastRun?.error).toBe(
      `its catalog of 12 products cannot be read: ${file} line 1 is not the catalog's header ("landing" is "first", not a whole number >= 1 (or absent)): that catalog is not served, and the file is left as it is; index feed 43 of demo42 again (its next index replaces the file), or move the file away`,
    );
    expect(warnings).toContain(`feed 43 of demo42: ${feed.lastRun!.error}`);
  });

  it('indexing.json missing while a catalog remains: the feed and the catalog agree, and the start says where it went', async () => {
    const { cwd, data } = copyOfData();
    // feed 42 (an upload feed) indexed once: its catalog, as the sandbox writes one
    const kept = readFileSync(path.join(data, 'catalogs', 'demo42-43.ndjson'), 'utf8').split('\n');
    const header = JSON.parse(kept[0]!);
    kept[0] = JSON.stringify({ ...header, feedId: 42, landing: header.landing + 1 });
    const file = path.join(data, 'catalogs', 'demo42-42.ndjson');
    writeFileSync(file, kept.join('\n'));
    rmSync(path.join(data, 'indexing.json'));
    const first = await startedOn(cwd, data, 42);
    // the fixtures' feed claims no products, and none are served as its index
    expect(first.feed).toMatchObject({ state: 'done', products: 0 });
    expect(first.catalog.total).toBe(0);
    const note = first.warnings.find((w) => w.startsWith('feed 42 of demo42: '));
    expect(note).toMatch(
      new RegExp(
        `^feed 42 of demo42: indexing\\.json was missing, so the feed started again from the fixtures, and the catalog the data directory kept for it \\(12 products, indexed at ${header.indexedAt.replace(/\./g, '\\.')}\\) is not its index: not served, and moved from ${file} to (${path.join(data, 'catalogs', 'orphaned')}/demo42-42\\.[0-9TZ-]+\\.ndjson)\\. To serve it again, stop the sandbox and put back both the indexing\\.json that named it and that file as ${file}; else index the feed again, and delete the file when you no longer need it$`,
      ),
    );
    expect(first.feed.history.at(-1)).toMatchObject({ kind: 'note', cause: 'sandbox' });
    const movedTo = /moved from \S+ to (\S+)\. To serve/.exec(note!)![1]!;
    expect(readFileSync(movedTo, 'utf8')).toBe(kept.join('\n'));
    expect(existsSync(file)).toBe(false);
    await first.cli.kill();
    // the next start neither serves it nor says it again
    const second = await startedOn(cwd, data, 42);
    expect(second.catalog.total).toBe(0);
    expect(second.feed.products).toBe(0);
    expect(second.warnings.filter((w) => w.includes('catalog'))).toEqual([]);
  });

  it('catalogs kept by a version that wrote no landing order start, and the search serves them', async () => {
    const { cwd, data } = copyOfData();
    const file = path.join(data, 'catalogs', 'demo42-43.ndjson');
    const [first, ...rest] = readFileSync(file, 'utf8').split('\n');
    const { landing: _landing, ...older } = JSON.parse(first!);
    writeFileSync(file, [JSON.stringify(older), ...rest].join('\n'));
    const cli = spawnCli(['serve', '--port', '0', '--data', data], cwd);
    cleanups.push(() => cli.kill());
    const url = await cli.ready;
    const feed = (await (await fetch(`${url}/_sandbox/feeds/demo42/43`)).json()) as {
      searchServes: { feedId: number } | null;
    };
    expect(feed.searchServes?.feedId).toBe(43);
    const res = await fetch(`${url}/api/search/search.json?siteId=demo42&q=trail`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { results: unknown[] }).results.length).toBeGreaterThan(0);
  });

  it('a catalog moved away: the feed no longer says it is indexed, and the start-up says why', async () => {
    const { cwd, data } = copyOfData();
    const before = JSON.parse(readFileSync(path.join(data, 'indexing.json'), 'utf8'));
    expect(before.feeds.find((f: { feedId: number }) => f.feedId === 43).products).toBeGreaterThan(
      0,
    );
    rmSync(path.join(data, 'catalogs', 'demo42-43.ndjson'));
    const cli = spawnCli(['serve', '--port', '0', '--data', data], cwd);
    cleanups.push(() => cli.kill());
    const url = await cli.ready;
    const feed = (await (await fetch(`${url}/_sandbox/feeds/demo42/43`)).json()) as {
      state: string;
      products: number;
      lastIndexed: string | null;
      lastRun: Record<string, unknown>;
      history: Array<{ kind: string; cause: string; detail: string; to?: string }>;
    };
    const reason =
      /^its catalog of 12 products is not in the data directory: index the feed again$/;
    expect(feed).toMatchObject({ state: 'error', products: 0, lastIndexed: null });
    // the run that indexed it is no longer what the feed has: its error is the loss, where the board shows errors
    expect(feed.lastRun).toMatchObject({ outcome: 'error', indexed: 0 });
    expect(feed.lastRun.error).toMatch(reason);
    // nothing was injected: the sandbox itself found the catalog missing at start-up
    expect(feed.history.at(-1)).toMatchObject({
      kind: 'transition',
      to: 'error',
      cause: 'sandbox',
    });
    expect(feed.history.at(-1)!.detail).toMatch(reason);
    const status = (await (
      await fetch(`${url}/api/index/status`, {
        headers: {
          authorization: `Basic ${Buffer.from('demo42:demo-secret-key').toString('base64')}`,
        },
      })
    ).json()) as { feeds: Array<{ id: number; lastIndexed: string | null; indexStatus: string }> };
    // the status API claims no catalog the search cannot answer from
    expect(status.feeds.find((f) => f.id === 43)).toMatchObject({
      lastIndexed: null,
      indexStatus: 'error',
    });
    const health = (await (await fetch(`${url}/_sandbox/health`)).json()) as { warnings: string[] };
    expect(health.warnings.join('\n')).toContain('feed 43 of demo42: its catalog');
  });
});
