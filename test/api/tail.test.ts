// Following a running sandbox: GET /_sandbox/events?follow=1 streams NDJSON (a backlog, then each new
// matching event, resets said), and `search-sandbox tail` prints it one line each, pages with --findings.
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { postBeacon, startSandbox, unrenderedImpression } from '../helpers/sandbox';
import { CLI, runCli } from './cli-process';
import { runTail } from '../../src/main/cli/tail';

const stops: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (stops.length) await stops.pop()!();
});

async function sandbox() {
  const s = await startSandbox();
  stops.push(() => s.close());
  return s;
}

const body = (pageLoadId: string, responseId: string) =>
  unrenderedImpression(pageLoadId, responseId);

/** Read NDJSON lines of a streamed answer until `done` says enough. */
async function readLines(res: Response, done: (lines: string[]) => boolean): Promise<string[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    if (done(lines)) {
      await reader.cancel();
      return lines;
    }
    const { value, done: ended } = await reader.read();
    if (ended) return lines;
    text += decoder.decode(value, { stream: true });
  }
}

/** `tail` pointed at a server of `handler` (no sandbox), run to its end. */
async function tailOf(handler: RequestListener): Promise<Awaited<ReturnType<typeof runCli>>> {
  const server = createHttpServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { port } = server.address() as AddressInfo;
    return await runCli(['tail', '--url', `http://127.0.0.1:${port}`], process.cwd());
  } finally {
    await new Promise((r) => server.close(r));
  }
}

describe('GET /_sandbox/events?follow=1', () => {
  it('streams the backlog, then each new matching event, and says when events are reset', async () => {
    const s = await sandbox();
    for (const id of ['p1', 'p2', 'p3'])
      await postBeacon(s.url, 'demo42/search/impression', body(id, `r-${id}`));
    const res = await fetch(`${s.url}/_sandbox/events?follow=1&limit=2&event=impression`);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const reading = readLines(res, (lines) => lines.length >= 4);
    await postBeacon(s.url, 'demo42/search/render', {
      context: body('p4', 'r').context,
      data: { responseId: 'r' },
    });
    await postBeacon(s.url, 'demo42/search/impression', body('p5', 'r-p5'));
    await fetch(`${s.url}/_sandbox/reset`, { method: 'POST' });
    const lines = await reading;
    const parsed = lines.map(
      (l) => JSON.parse(l) as { body?: { context: { pageLoadId: string } }; reset?: unknown },
    );
    expect(parsed.map((p) => p.body?.context.pageLoadId ?? p.reset)).toEqual([
      'p2',
      'p3',
      'p5',
      { what: 'events' },
    ]);
  });
});

describe('search-sandbox tail', () => {
  it('prints each beacon as it arrives, and pages whose findings change with --findings', async () => {
    const s = await sandbox();
    await postBeacon(s.url, 'demo42/search/impression', body('before', 'r0'));
    const child = spawn(
      process.execPath,
      [CLI, 'tail', '--url', s.url, '--findings', '--backlog', '1'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    const exit = new Promise<number | null>((resolve) =>
      child.on('close', (code) => resolve(code)),
    );
    stops.push(() => void child.kill('SIGKILL'));
    const until = async (pattern: RegExp) => {
      while (!pattern.test(out)) await new Promise((r) => setTimeout(r, 20));
    };
    await until(/page before/);
    // an impression without its render is accepted, and its page fails missing-render; a body without data is rejected
    await postBeacon(s.url, 'demo42/search/impression', body('live', 'r1'));
    await postBeacon(s.url, 'demo42/search/impression', { context: body('bad', 'r').context });
    await until(/FAIL page live .*missing-render/);
    await until(/BAD 400 {2}demo42 {2}search\/impression {2}page bad/);
    expect(out).toMatch(/OK {2}200 {2}demo42 {2}search\/impression {2}page live {2}responseId r1/);
    // not a terminal: no colour codes
    expect(out).not.toContain('\u001b[');
    child.kill('SIGINT');
    expect(await exit).toBe(0);
  });

  it('says beside the time of a beacon received while the sandbox clock was moved by how much', async () => {
    const s = await sandbox();
    await postBeacon(s.url, 'demo42/search/impression', body('real', 'r0'));
    await fetch(`${s.url}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance: 'PT61M' }),
    });
    await postBeacon(s.url, 'demo42/search/impression', body('moved', 'r1'));
    const stop = new AbortController();
    let out = '';
    const code = await runTail(['--url', s.url, '--backlog', '2'], {
      out: (t) => {
        out += t;
        if (/page moved/.test(out)) stop.abort();
      },
      err: () => {},
      color: false,
      signal: stop.signal,
    });
    expect(code).toBe(0);
    expect(out).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} {2}OK {2}200 {2}demo42 {2}search\/impression {2}page real/m,
    );
    expect(out).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} \(clock moved \+1 h 01 min\) {2}OK {2}200 {2}demo42 {2}search\/impression {2}page moved/m,
    );
  });

  it('with --findings, prints the verdicts pages reached before it connected, then their changes', async () => {
    const s = await sandbox();
    // a render nobody impressed, judged while nobody listened (the sandbox clock moved past its idle time)
    await postBeacon(s.url, 'demo42/search/render', {
      context: body('early', 'r0').context,
      data: { responseId: 'r0' },
    });
    await fetch(`${s.url}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance: 'PT1M' }),
    });
    const child = spawn(
      process.execPath,
      [CLI, 'tail', '--url', s.url, '--findings', '--backlog', '5'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    stops.push(() => void child.kill('SIGKILL'));
    const until = async (pattern: RegExp) => {
      while (!pattern.test(out)) await new Promise((r) => setTimeout(r, 20));
    };
    await until(/page early .*no-impression/);
    // a later change of the same page is printed as it happens
    await postBeacon(s.url, 'demo42/search/impression', body('early', 'r0'));
    const pageLines = () => out.match(/(?:PASS|WARN|FAIL) page early .*/g) ?? [];
    while (pageLines().length < 2) await new Promise((r) => setTimeout(r, 20));
    expect(pageLines()[1]).not.toMatch(/no-impression/);
  });

  it('with --findings --json, every line is JSON: events as recorded, pages as {"page": …}, resets as {"reset": …}', async () => {
    const s = await sandbox();
    await postBeacon(s.url, 'demo42/search/impression', body('before', 'r0'));
    const child = spawn(
      process.execPath,
      [CLI, 'tail', '--url', s.url, '--findings', '--json', '--backlog', '1'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    stops.push(() => void child.kill('SIGKILL'));
    const lines = () => out.split('\n').filter((l) => l !== '');
    const until = async (pattern: RegExp) => {
      while (!pattern.test(out)) await new Promise((r) => setTimeout(r, 20));
    };
    await until(/"pageLoadId":"before".*\n[^]*"pageLoadId":"before"/);
    await postBeacon(s.url, 'demo42/search/impression', body('live', 'r1'));
    await until(/"page":\{[^\n]*"pageLoadId":"live"[^\n]*"verdict":"fail"/);
    await fetch(`${s.url}/_sandbox/reset`, { method: 'POST' });
    await until(/"reset"/);
    const items = lines().map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(items.some((i) => 'seq' in i && i.category === 'search')).toBe(true);
    expect(items.find((i) => 'page' in i)).toMatchObject({
      page: { siteId: 'demo42', verdict: expect.any(String), rules: expect.any(Array) },
    });
    expect(items.at(-1)).toMatchObject({ reset: { what: expect.any(String) } });
  });

  it('ends, as Ctrl-C ends it, when its reader goes away (tail | grep -m1 …)', async () => {
    const s = await sandbox();
    await postBeacon(s.url, 'demo42/search/impression', body('before', 'r0'));
    const child = spawn(process.execPath, [CLI, 'tail', '--url', s.url, '--backlog', '1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    stops.push(() => void child.kill('SIGKILL'));
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    const exit = new Promise<number | null>((resolve) =>
      child.on('close', (code) => resolve(code)),
    );
    await new Promise((resolve) => child.stdout.once('data', resolve));
    child.stdout.destroy();
    // the next line it writes finds the pipe closed
    await postBeacon(s.url, 'demo42/search/impression', body('after', 'r1'));
    expect(await exit).toBe(0);
    expect(err).not.toMatch(/EPIPE|Error|at /);
  });

  it('says in one line when the sandbox cannot be reached, and refuses unknown flags', async () => {
    // a port nothing listens on: taken, then given back
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise((r) => probe.close(r));
    const down = await runCli(['tail', '--url', `http://127.0.0.1:${port}`], process.cwd());
    expect(down.code).toBe(2);
    expect(down.stderr).toBe(
      `search-sandbox tail: cannot reach http://127.0.0.1:${port} (ECONNREFUSED): start one with "npx search-sandbox serve", or give its address with --url\n`,
    );
    const bad = await runCli(['tail', '--colour'], process.cwd());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^search-sandbox tail: unknown flag --colour: the flags are/);
  });

  it('says when the sandbox goes away while it follows: the stream ended, or the connection lost (exit 1)', async () => {
    // a sandbox's events stream: one line, then the stream ends cleanly or its connection is cut
    const follow = (end: 'end' | 'cut') =>
      createHttpServer((req, res) => {
        if (!req.url!.startsWith('/_sandbox/events')) return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        res.write('{"reset":{"what":"events"}}\n', () =>
          setTimeout(() => (end === 'end' ? res.end() : res.socket!.destroy()), 50),
        );
      });
    for (const end of ['end', 'cut'] as const) {
      const server = follow(end);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      try {
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        let out = '';
        let err = '';
        const code = await runTail(['--url', base], {
          out: (t) => (out += t),
          err: (t) => (err += t),
          color: false,
        });
        expect(out).toBe('-- reset: events\n');
        expect(code).toBe(1);
        expect(err).toBe(
          end === 'end'
            ? `search-sandbox tail: the sandbox at ${base} closed the stream (stopped?)\n`
            : `search-sandbox tail: lost the sandbox at ${base} (UND_ERR_SOCKET): it stopped or restarted; run tail again once it is back\n`,
        );
      } finally {
        await new Promise((r) => server.close(r));
      }
    }
  });

  it('says what is wrong with the address it is given, and when what answers there is no sandbox', async () => {
    const base = 'http://127.0.0.1:4545';
    const withPath = await runCli(['tail', '--url', `${base}/_sandbox`], process.cwd());
    expect(withPath.code).toBe(2);
    expect(withPath.stderr).toBe(
      `search-sandbox tail: --url "${base}/_sandbox" has a path or query: pass only the origin, e.g. ${base}\n`,
    );
    const notUrl = await runCli(['tail', '--url', 'notaurl'], process.cwd());
    expect(notUrl.stderr).toMatch(
      /^search-sandbox tail: --url "notaurl" is not a URL: pass the sandbox's address/,
    );
    // another app on the port: it answers HTML
    const html = await tailOf((_req, res) => res.end('<html>hello</html>'));
    expect(html.code).toBe(2);
    expect(html.stderr).toMatch(
      /^search-sandbox tail: http:\/\/127\.0\.0\.1:\d+ answered, but not as a search-sandbox does/,
    );
    // a web server's own 404 page: one line naming what answered, not the page
    const page = await tailOf((_req, res) => {
      res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(
        '<!DOCTYPE HTML>\n<html>\n<title>Error response</title>\n<p>File not found</p>\n</html>\n',
      );
    });
    expect(page.code).toBe(2);
    expect(page.stderr).toMatch(
      /^search-sandbox tail: http:\/\/127\.0\.0\.1:\d+\/_sandbox\/events\?[^ ]* answered 404, but not as a search-sandbox does \(text\/html, no JSON refusal\): is a sandbox listening at that address\? Give its address with --url\n$/,
    );
  });
});
