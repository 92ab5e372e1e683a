// File → Import end to end: a DevTools HAR, NDJSON and a sandbox export are turned into the import
// body with the offline checker's reader, and a real sandbox records them through POST /_sandbox/import.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DesktopActions } from '../../src/main/desktop/actions';
import { AdminClient } from '../../src/main/desktop/admin-client';
import { InputError, prepareImport } from '../../src/main/desktop/import-file';
import { FakeDialog, FakeShell } from './desktop-fake-electron';
import { startSandbox, tempDir } from '../helpers/sandbox';
import type { Sandbox } from '../../src/main/sandbox';
import type { PageTimelineDto } from '../../src/shared/timeline';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const HAR = path.resolve('fixtures/har/storefront-visit.har');
const body = (pageLoadId: string, timestamp = '2026-11-21T04:00:00.000Z') => ({
  context: {
    timestamp,
    pageUrl: 'https://s.example/',
    userId: 'u',
    sessionId: 's',
    pageLoadId,
    initiator: 'x',
  },
  data: { responseId: 'r' },
});

describe('prepareImport', () => {
  it("takes a HAR's search beacons with their request times", () => {
    const prepared = prepareImport(readFileSync(HAR, 'utf8'), 'storefront-visit.har');
    expect(prepared.kind).toBe('har');
    expect(prepared.count).toBeGreaterThan(0);
    const events = JSON.parse(prepared.body) as Array<Record<string, unknown>>;
    expect(events).toHaveLength(prepared.count);
    for (const e of events) {
      expect(e.siteId).toBe('demo42');
      expect(e.receivedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(e).not.toHaveProperty('id');
      expect(e).not.toHaveProperty('seq');
    }
  });

  it('leaves out bare bodies that name no site, and says how to fix them', () => {
    const text = [
      JSON.stringify(body('p1')),
      JSON.stringify({ siteId: 'demo42', event: 'render', body: body('p2') }),
    ].join('\n');
    const prepared = prepareImport(text, 'mixed.ndjson');
    expect(prepared.count).toBe(1);
    // no receivedAt in the line: the body's own timestamp stands in
    expect((JSON.parse(prepared.body) as Array<{ receivedAt: string }>)[0]!.receivedAt).toBe(
      '2026-11-21T04:00:00.000Z',
    );
    expect(prepared.notes).toEqual([
      expect.stringMatching(
        /^1 event left out: no siteId \(bare beacon bodies\)\. Write each line as \{"siteId"/,
      ),
    ]);
  });

  it('leaves out events with neither a receive time nor a usable timestamp', () => {
    const prepared = prepareImport(
      JSON.stringify({ siteId: 'demo42', event: 'render', body: body('p1', 'yesterday') }),
      'x.ndjson',
    );
    expect(prepared.count).toBe(0);
    expect(prepared.notes).toEqual([
      '1 event left out: no receive time and no valid context.timestamp to use instead.',
    ]);
  });

  it('passes a sandbox export through untouched, sections included', () => {
    const exported = JSON.stringify({
      format: 'search-sandbox-export',
      version: 1,
      events: [],
      feeds: { keep: true },
    });
    expect(prepareImport(exported, 'export.json')).toEqual({
      kind: 'export',
      body: exported,
      count: 0,
      notes: [],
    });
  });

  it('refuses what is not traffic with the reader’s message', () => {
    expect(() => prepareImport('hello', 'notes.txt')).toThrow(InputError);
    expect(() => prepareImport('hello', 'notes.txt')).toThrow(/notes.txt:1: not JSON/);
    expect(() => prepareImport('{"log": 1}', 'a.har')).toThrow(/not a HAR file/);
  });
});

/** File → Import of `file` into `sandbox`, through the desktop's actions; the dialog it answered. */
async function importInto(sandbox: Sandbox, file: string): Promise<FakeDialog> {
  const dialog = new FakeDialog();
  dialog.openAnswers.push({ canceled: false, filePaths: [file] });
  const actions = new DesktopActions({
    dialog,
    shell: new FakeShell(),
    window: () => null,
    sandboxUrl: sandbox.url,
    accounts: sandbox.core.config.accounts,
    reset: (scope) => sandbox.core.reset(scope),
    admin: new AdminClient(sandbox.url),
    dataDir: '/unused',
    readmePath: null,
    now: () => new Date(),
  });
  await actions.importTraffic();
  return dialog;
}

/** The request-refused messages of a sandbox's timelines. */
async function refusals(sandbox: Sandbox): Promise<string[]> {
  const list = (await (await fetch(`${sandbox.url}/_sandbox/timelines`)).json()) as {
    pages: PageTimelineDto[];
  };
  return list.pages
    .flatMap((p) => p.findings)
    .filter((f) => f.rule === 'request-refused')
    .map((f) => f.message);
}

describe('File → Import into a real sandbox', () => {
  it('records the HAR’s beacons, visible through the events API', async () => {
    const sandbox = await startSandbox();
    cleanups.push(() => sandbox.close());
    const dialog = await importInto(sandbox, HAR);
    const expected = prepareImport(readFileSync(HAR, 'utf8'), 'storefront-visit.har').count;
    expect(dialog.messages()).toEqual([
      expect.objectContaining({
        type: 'info',
        message: 'Imported storefront-visit.har',
        detail: expect.stringContaining(`${expected} events imported`),
      }),
    ]);
    const listed = (await (await fetch(`${sandbox.url}/_sandbox/events?limit=1000`)).json()) as {
      events: Array<{ siteId: string }>;
    };
    expect(listed.events).toHaveLength(expected);
    expect(new Set(listed.events.map((e) => e.siteId))).toEqual(new Set(['demo42']));
  });

  it('keeps what a recorded event says of its request: NDJSON of recorded events, as tail --json writes them', async () => {
    const recording = await startSandbox();
    cleanups.push(() => recording.close());
    const text = JSON.stringify({
      ...body('p415'),
      context: { ...body('p415').context, dev: true },
    });
    // two 415s on one page, told apart only by the Content-Type they were sent with
    for (const headers of [{ 'Content-Type': 'application/xml' }, {}] as Array<
      Record<string, string>
    >) {
      const res = await fetch(`${recording.url}/beacon/v2/demo42/search/render`, {
        method: 'POST',
        headers,
        body: new TextEncoder().encode(text),
      });
      expect(res.status).toBe(415);
    }
    const recorded = (await (await fetch(`${recording.url}/_sandbox/events`)).json()) as {
      events: unknown[];
    };
    const t = tempDir('desktop-import-refused-');
    cleanups.push(t.cleanup);
    const file = path.join(t.dir, 'tail.ndjson');
    writeFileSync(file, recorded.events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    const sandbox = await startSandbox();
    cleanups.push(() => sandbox.close());
    expect((await importInto(sandbox, file)).messages()[0]).toMatchObject({ type: 'info' });
    const live = await refusals(recording);
    expect(live.join('\n')).toMatch(/Content-Type is "application\/xml"/);
    expect(await refusals(sandbox)).toEqual(live);
  });

  it('tells the user when a file has nothing to import, without calling the sandbox', async () => {
    const t = tempDir('desktop-import-empty-');
    cleanups.push(t.cleanup);
    const file = path.join(t.dir, 'bare.ndjson');
    writeFileSync(file, `${JSON.stringify(body('p1'))}\n`);
    const dialog = new FakeDialog();
    dialog.openAnswers.push({ canceled: false, filePaths: [file] });
    const calls: string[] = [];
    const actions = new DesktopActions({
      dialog,
      shell: new FakeShell(),
      window: () => null,
      sandboxUrl: 'http://127.0.0.1:1',
      accounts: [],
      reset: async () => {},
      admin: {
        importEvents: async () => {
          calls.push('import');
          throw new Error('must not be called');
        },
        report: async () => {
          throw new Error('no');
        },
        uploadFeed: async () => {
          throw new Error('no');
        },
      },
      dataDir: '/unused',
      readmePath: null,
      now: () => new Date(),
    });
    await actions.importTraffic();
    expect(calls).toEqual([]);
    expect(dialog.messages()[0]).toMatchObject({
      type: 'info',
      message: 'Nothing to import from bare.ndjson',
      detail: expect.stringContaining('no siteId'),
    });
  });
});
