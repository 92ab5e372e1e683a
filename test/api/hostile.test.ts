// Hostile and broken input through the real interface: one crafted beacon never costs seconds, memory or
// stored data; every request is recorded at any depth the sandbox accepts; an invalid import changes
// nothing; reports stay valid XML and the terminal sees only escaped text.
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../src/shared/events';
import { SaxesParser } from 'saxes';
import { runCheck } from '../../src/main/check/cli';
import { captured } from '../helpers/check';
import { judgedOffLoop } from '../../src/main/tracking/body-worker';
import { postBeacon, startSandbox, tempDir } from '../helpers/sandbox';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (stops.length) await stops.pop()!();
});

/** The recorded events (the list answer is an array, or {events} in older shapes). */
async function list(base: string): Promise<RecordedEvent[]> {
  const body = (await (await fetch(`${base}/_sandbox/events`)).json()) as
    RecordedEvent[] | { events: RecordedEvent[] };
  return Array.isArray(body) ? body : body.events;
}

async function sandbox() {
  const s = await startSandbox();
  stops.push(() => s.close());
  return s;
}

const context = (pageLoadId: string) => ({
  timestamp: new Date().toISOString(),
  pageUrl: 'https://shop.example/search?q=x',
  userId: 'u1',
  sessionId: 's1',
  pageLoadId,
  initiator: 'hostile',
});

describe('error amplification', () => {
  it('answers a body of 340,000 bad items with its first problems and a count, and records as much', async () => {
    const s = await sandbox();
    const judged = judgedOffLoop();
    const text = `{"context":${JSON.stringify(context('amp'))},"data":{"responseId":"r","results":[${'{},'.repeat(340_000)}{}],"banners":[]}}`;
    expect(text.length).toBeLessThan(1_048_576);
    const res = await postBeacon(s.url, 'demo42/search/impression', text);
    expect(res.status).toBe(400);
    const answer = await res.text();
    // judged in the body worker, off the event loop
    expect(judgedOffLoop()).toBe(judged + 1);
    // the answer echoes the body (as the service does) and lists a bounded number of problems
    const body = JSON.parse(answer) as { messages: string[] };
    expect(body.messages.length).toBeLessThanOrEqual(52);
    expect(body.messages.at(-1)).toMatch(
      /further problems of this body are not listed: one of its lists holds 340001 items/,
    );
    const recorded = (await list(s.url))[0]!;
    expect(recorded.errors.length).toBeLessThanOrEqual(52);
    // its first 64 KiB kept as text (not 340,000 objects), still placed on its page with its finding
    expect(recorded.body).toBe(text.slice(0, 65_536));
    expect(recorded.bodyTruncated).toEqual({ length: text.length, kept: 65_536 });
    const page = (await (await fetch(`${s.url}/_sandbox/timelines/amp`)).json()) as {
      pageLoadId: string;
      findings: Array<{ rule: string }>;
    };
    expect(page.pageLoadId).toBe('amp');
    expect(page.findings.map((f) => f.rule)).toContain('schema');
  });

  it('reads at most 1,000 items of a rejected body onto its timeline', async () => {
    const s = await sandbox();
    // 5,000 items with numeric uids: rejected, small enough (under 64 KiB) to be kept as parsed JSON
    const results = Array.from({ length: 5_000 }, (_, i) => ({ uid: i }));
    const text = JSON.stringify({ context: context('many'), data: { responseId: 'r', results } });
    expect(text.length).toBeLessThan(65_536);
    expect((await postBeacon(s.url, 'demo42/search/impression', text)).status).toBe(400);
    const page = (await (await fetch(`${s.url}/_sandbox/timelines/many`)).json()) as {
      responses: Array<{ events: Array<{ uids: string[]; accepted: boolean }> }>;
    };
    const event = page.responses.flatMap((r) => r.events)[0]!;
    expect(event.accepted).toBe(false);
    expect(event.uids).toHaveLength(1_000);
    expect(event.uids[999]).toBe('999');
  });

  it('lists at most 50 problems of an ordinary bad body and counts the rest', async () => {
    const s = await sandbox();
    const results = Array.from({ length: 200 }, () => ({ uid: 7 }));
    const res = await postBeacon(s.url, 'demo42/search/impression', {
      context: context('many'),
      data: { responseId: 'r', results, banners: [] },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { messages: string[] };
    expect(body.messages).toHaveLength(51);
    expect(body.messages[50]).toMatch(/^and \d+ more problems of this body \(not listed\)$/);
  });
});

describe('depth', () => {
  it('records a log body nested 6,000 levels deep (as text) and shows it', async () => {
    const s = await sandbox();
    let deep = '"x"';
    for (let i = 0; i < 6000; i++) deep = `[${deep}]`;
    const text = `{"context":${JSON.stringify(context('deep'))},"data":{"message":"deep","details":{"v":${deep}}}}`;
    const res = await postBeacon(s.url, 'demo42/log/snap', text);
    expect(res.status).toBeLessThan(500);
    const list = (await (await fetch(`${s.url}/_sandbox/events`)).json()) as
      RecordedEvent[] | { events: RecordedEvent[] };
    const events = Array.isArray(list) ? list : list.events;
    expect(events).toHaveLength(1);
    const one = await fetch(`${s.url}/_sandbox/events/${events[0]!.id}`);
    expect(one.status).toBe(200);
    expect(((await one.json()) as RecordedEvent).body).toBe(text);
    const exported = await fetch(`${s.url}/_sandbox/export`);
    expect(exported.status).toBe(200);
  });
});

describe('import', () => {
  it('an invalid file imports nothing and changes nothing, even with replace=true', async () => {
    const s = await sandbox();
    await postBeacon(s.url, 'demo42/search/render', {
      context: context('kept'),
      data: { responseId: 'r1' },
    });
    const [kept] = await list(s.url);
    const good = { ...kept!, id: undefined, seq: undefined };
    let deep = '1';
    for (let i = 0; i < 5000; i++) deep = `[${deep}]`;
    const bodies = {
      'a bad event halfway': [good, { ...good, receivedAt: 5 }, good]
        .map((e) => JSON.stringify(e))
        .join('\n'),
      'a body nested 5,000 levels deep': `${JSON.stringify(good)}\n${JSON.stringify({ ...good, body: 'X' }).replace('"X"', deep)}`,
      'a torn last line': `${JSON.stringify(good)}\n{"torn`,
      // large enough to be read and checked in the worker (over 256 KB)
      'a bad event after 2,000 good ones': [
        ...Array.from({ length: 2000 }, () => good),
        { ...good, receivedAt: 5 },
        good,
      ]
        .map((e) => JSON.stringify(e))
        .join('\n'),
    };
    for (const [what, body] of Object.entries(bodies)) {
      const res = await fetch(`${s.url}/_sandbox/import?replace=true`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-ndjson' },
        body,
      });
      expect(res.status, what).toBe(400);
      expect(((await res.json()) as { message: string }).message, what).toMatch(
        /^nothing was imported/,
      );
      expect(
        (await list(s.url)).map((e) => e.id),
        what,
      ).toEqual([kept!.id]);
    }
  });
});

describe('reports and the terminal', () => {
  it('JUnit stays well-formed XML and the text report escapes control characters, whatever a page URL holds', async () => {
    const { dir, cleanup } = tempDir();
    stops.push(async () => cleanup());
    const nasty =
      'https://shop.example/?q=\uFFFE\uFFFF\u0001\u001b]0;pwned\u0007\u001b[2J\uD800x\nFAIL fake';
    const body = (event: string, data: object) =>
      JSON.stringify({
        kind: 'search',
        event,
        body: { context: { ...context('nasty'), pageUrl: nasty }, data },
      });
    const file = path.join(dir, 'nasty.ndjson');
    writeFileSync(
      file,
      [body('impression', { responseId: 'r', results: [{ uid: 'a' }], banners: [] })].join('\n'),
    );
    const run = (...args: string[]) => captured(runCheck, [file, ...args], Date.now);
    const junit = await run('--format', 'junit');
    expect(junit.code).toBe(1);
    const parser = new SaxesParser();
    expect(() => {
      parser.write(junit.out);
      parser.close();
    }).not.toThrow();
    const text = await run();
    // eslint-disable-next-line no-control-regex -- the control characters are what is looked for
    expect(text.out).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/);
    expect(text.out).toContain('\\u001b]0;pwned\\u0007');
    // the newline in the URL cannot start a line of its own
    expect(text.out.split('\n').filter((l) => l.startsWith('FAIL fake'))).toEqual([]);
  });
});
