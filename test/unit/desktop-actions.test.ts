// Menu and preload actions call the right sandbox operation: import → POST /_sandbox/import, export →
// GET /_sandbox/report, reset → core.reset, feed upload → the real POST /api/index/feed with basic auth.
import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  DesktopActions,
  importSummary,
  type ActionDeps,
  type SandboxAdmin,
} from '../../src/main/desktop/actions';
import { AdminClient, type HttpOutcome } from '../../src/main/desktop/admin-client';
import type { ResetScope } from '../../src/main/sandbox';
import { FakeDialog, FakeShell } from './desktop-fake-electron';
import { tempDir } from '../helpers/sandbox';
import { writePlaywrightHars } from '../helpers/playwright-har';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const ok = (body: unknown, contentType = 'application/json'): HttpOutcome => ({
  status: 200,
  contentType,
  body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
});

class RecordingAdmin implements SandboxAdmin {
  calls: Array<[string, unknown]> = [];
  answer: HttpOutcome | Error = ok({ success: true });
  private reply(): Promise<HttpOutcome> {
    return this.answer instanceof Error
      ? Promise.reject(this.answer)
      : Promise.resolve(this.answer);
  }
  report(format: string) {
    this.calls.push(['report', format]);
    return this.reply();
  }
  importEvents(json: string) {
    this.calls.push(['import', JSON.parse(json)]);
    return this.reply();
  }
  uploadFeed(request: unknown) {
    this.calls.push(['upload', request]);
    return this.reply();
  }
}

function setup(overrides: Partial<ActionDeps> = {}) {
  const dialog = new FakeDialog();
  const shell = new FakeShell();
  const admin = new RecordingAdmin();
  const resets: ResetScope[] = [];
  const saved: Array<[string, string]> = [];
  const actions = new DesktopActions({
    dialog,
    shell,
    window: () => null,
    sandboxUrl: 'http://127.0.0.1:4545',
    accounts: [{ siteId: 'demo42', secretKey: 'demo-secret-key', name: 'Demo', feeds: [] }],
    reset: async (scope) => {
      resets.push(scope);
    },
    admin,
    dataDir: '/data/dir',
    readmePath: '/app/README.md',
    now: () => new Date('2026-11-21T04:05:06Z'),
    saveFile: async (file, data) => {
      saved.push([file, data.toString('utf8')]);
    },
    ...overrides,
  });
  return { actions, dialog, shell, admin, resets, saved };
}

describe('File → Import HAR or events', () => {
  function file(name: string, text: string): string {
    const t = tempDir('desktop-import-');
    cleanups.push(t.cleanup);
    const full = path.join(t.dir, name);
    writeFileSync(full, text);
    return full;
  }
  const render = (pageLoadId: string) => ({
    siteId: 'demo42',
    event: 'render',
    receivedAt: '2026-11-21T04:00:00.000Z',
    body: {
      context: {
        timestamp: '2026-11-21T04:00:00.000Z',
        pageUrl: 'https://s.example/',
        userId: 'u',
        sessionId: 's',
        pageLoadId,
        initiator: 'x',
      },
      data: { responseId: 'r' },
    },
  });

  it('reads the chosen file, sends its events to the import endpoint and reports the answer', async () => {
    const { actions, dialog, admin } = setup();
    const ndjson = file(
      'session.ndjson',
      `${JSON.stringify(render('p1'))}\n${JSON.stringify(render('p2'))}\n`,
    );
    dialog.openAnswers.push({ canceled: false, filePaths: [ndjson] });
    admin.answer = ok({
      imported: 2,
      firstId: 'a',
      lastId: 'b',
      sections: [],
      ignoredSections: [],
    });
    await actions.importTraffic();
    expect(admin.calls).toHaveLength(1);
    const [kind, sent] = admin.calls[0]!;
    expect(kind).toBe('import');
    expect(
      (sent as Array<{ siteId: string; event: string; accepted: boolean }>).map((e) => [
        e.siteId,
        e.event,
        e.accepted,
      ]),
    ).toEqual([
      ['demo42', 'render', true],
      ['demo42', 'render', true],
    ]);
    expect(dialog.messages()).toEqual([
      expect.objectContaining({
        type: 'info',
        message: 'Imported session.ndjson',
        detail: '2 events imported; their pages are on the Timelines screen.',
      }),
    ]);
  });

  it("imports the HARs Playwright's recordHar saves with their bodies apart: a .zip, and content: 'attach'", async () => {
    const t = tempDir('desktop-import-har-');
    cleanups.push(t.cleanup);
    const embedded = readFileSync(
      path.resolve(__dirname, '../../fixtures/har/storefront-visit.har'),
      'utf8',
    );
    const { attach, zip } = writePlaywrightHars(embedded, t.dir);
    const inline = file('inline.har', embedded);
    const events = async (har: string) => {
      const { actions, dialog, admin } = setup();
      dialog.openAnswers.push({ canceled: false, filePaths: [har] });
      await actions.importTraffic();
      expect(dialog.messages().filter((m) => m.type === 'error')).toEqual([]);
      return admin.calls.map(([, sent]) => sent as Array<{ event: string; body: unknown }>)[0]!;
    };
    const expected = await events(inline);
    expect(expected.length).toBe(16);
    for (const har of [zip, attach]) expect(await events(har)).toEqual(expected);
  });

  it('does nothing when the dialog is cancelled', async () => {
    const { actions, dialog, admin } = setup();
    await actions.importTraffic();
    expect(admin.calls).toEqual([]);
    expect(dialog.messages()).toEqual([]);
  });

  it('says what is wrong with a file it cannot read, without calling the sandbox', async () => {
    const { actions, dialog, admin } = setup();
    dialog.openAnswers.push({ canceled: false, filePaths: [file('notes.har', '{"log": {}}')] });
    await actions.importTraffic();
    expect(admin.calls).toEqual([]);
    expect(dialog.messages()[0]).toMatchObject({
      type: 'error',
      message: 'Could not read notes.har',
      detail: expect.stringMatching(/not a HAR file: "log.entries" is missing/),
    });
  });

  it('refuses a directory or a device picked as traffic with one line, through the recordings reader', async () => {
    const { actions, dialog, admin } = setup();
    const folder = path.dirname(file('x.ndjson', ''));
    dialog.openAnswers.push({ canceled: false, filePaths: [folder] });
    dialog.openAnswers.push({ canceled: false, filePaths: ['/dev/zero'] });
    await actions.importTraffic();
    await actions.importTraffic();
    expect(admin.calls).toEqual([]);
    expect(dialog.messages().map((m) => m.detail)).toEqual([
      expect.stringMatching(/is a directory: give a recording file/),
      expect.stringMatching(/\/dev\/zero is a device, not a recording/),
    ]);
  });

  it("shows the sandbox's reason when it refuses the import", async () => {
    const { actions, dialog, admin } = setup();
    dialog.openAnswers.push({
      canceled: false,
      filePaths: [file('a.ndjson', JSON.stringify(render('p1')))],
    });
    admin.answer = {
      status: 400,
      contentType: 'application/json',
      body: Buffer.from(
        '{"error":"InvalidImport","message":"nothing was imported: events[0]: bad"}',
      ),
    };
    await actions.importTraffic();
    expect(dialog.messages()).toEqual([
      expect.objectContaining({
        type: 'error',
        message: 'Could not import a.ndjson',
        detail: 'The sandbox refused it (HTTP 400): nothing was imported: events[0]: bad',
      }),
    ]);
  });

  it('turns a failed connection into an error dialog', async () => {
    const { actions, dialog, admin } = setup();
    dialog.openAnswers.push({
      canceled: false,
      filePaths: [file('a.ndjson', JSON.stringify(render('p1')))],
    });
    admin.answer = new Error('fetch failed');
    await actions.importTraffic();
    expect(dialog.messages()[0]).toMatchObject({
      type: 'error',
      message: 'Could not import a.ndjson',
      detail: 'fetch failed (sandbox at http://127.0.0.1:4545)',
    });
  });
});

describe('File → Export report', () => {
  it('fetches the report in the chosen format and saves it where the user says', async () => {
    const { actions, dialog, admin, saved } = setup();
    admin.answer = ok('<testsuites/>', 'application/xml');
    dialog.saveAnswers.push({ canceled: false, filePath: '/home/qa/report.xml' });
    await actions.exportReport('junit');
    expect(admin.calls).toEqual([['report', 'junit']]);
    const save = dialog.calls.find((c) => c.kind === 'save')!;
    expect(save.options).toMatchObject({
      defaultPath: 'search-sandbox-report-2026-11-21-04-05-06.xml',
      filters: [{ name: 'JUnit XML', extensions: ['xml'] }],
    });
    expect(saved).toEqual([['/home/qa/report.xml', '<testsuites/>']]);
  });

  it('saves nothing when the user cancels the save dialog', async () => {
    const { actions, saved } = setup();
    await actions.exportReport('html');
    expect(saved).toEqual([]);
  });

  it('says why when the sandbox cannot produce the report', async () => {
    const { actions, dialog, admin, saved } = setup();
    admin.answer = {
      status: 404,
      contentType: 'application/json',
      body: Buffer.from('{"message":"no admin endpoint GET /_sandbox/report"}'),
    };
    await actions.exportReport('html');
    expect(saved).toEqual([]);
    expect(dialog.calls.some((c) => c.kind === 'save')).toBe(false);
    expect(dialog.messages()[0]).toMatchObject({
      type: 'error',
      message: 'Could not export the HTML report',
      detail: 'The sandbox answered HTTP 404: no admin endpoint GET /_sandbox/report',
    });
  });
});

describe('File → Reset', () => {
  it('resets events only, or everything, as chosen; Cancel resets nothing', async () => {
    const { actions, dialog, resets } = setup();
    dialog.messageAnswers.push(0, 1, 2);
    expect(await actions.resetSandbox()).toBeNull();
    expect(await actions.resetSandbox()).toEqual({ what: 'events' });
    expect(await actions.resetSandbox()).toEqual({ what: 'all' });
    expect(resets).toEqual([{ what: 'events' }, { what: 'all' }]);
    expect(dialog.messages()[0]).toMatchObject({
      buttons: ['Cancel', 'Events and timelines', 'Everything'],
      cancelId: 0,
      defaultId: 0,
    });
  });
});

describe('Help and data folder', () => {
  it('opens the sandbox in the system browser and the README and data folder with the system', async () => {
    const { actions, shell } = setup();
    await actions.openInBrowser();
    await actions.openReadme();
    expect(await actions.openDataDirectory()).toEqual({ path: '/data/dir', error: null });
    expect(shell.external).toEqual(['http://127.0.0.1:4545/']);
    expect(shell.opened).toEqual(['/app/README.md', '/data/dir']);
  });

  it('reports a data folder the system cannot open', async () => {
    const { actions, shell } = setup();
    shell.openPathAnswer = 'Failed to open path';
    expect(await actions.openDataDirectory()).toEqual({
      path: '/data/dir',
      error: 'Failed to open path',
    });
  });
});

describe('window.sandboxDesktop.uploadFeedFile', () => {
  it('uploads the chosen file with the account credentials from the config', async () => {
    const { actions, dialog, admin } = setup();
    dialog.openAnswers.push({ canceled: false, filePaths: ['/feeds/products.csv'] });
    admin.answer = ok({ success: true });
    const result = await actions.uploadFeedFile({
      siteId: 'demo42',
      feedId: 42,
      requestedBy: 'qa@example.com',
    });
    expect(result).toEqual({
      outcome: 'sent',
      fileName: 'products.csv',
      status: 200,
      body: { success: true },
    });
    expect(admin.calls).toEqual([
      [
        'upload',
        {
          siteId: 'demo42',
          feedId: 42,
          requestedBy: 'qa@example.com',
          secretKey: 'demo-secret-key',
          filePath: '/feeds/products.csv',
        },
      ],
    ]);
  });

  it('hands the real endpoint answer back, refusals included', async () => {
    const { actions, dialog, admin } = setup();
    dialog.openAnswers.push({ canceled: false, filePaths: ['/feeds/p.csv'] });
    admin.answer = {
      status: 429,
      contentType: 'application/json; charset=utf-8',
      body: Buffer.from('{"success":false,"message":"wait"}'),
    };
    expect(await actions.uploadFeedFile({ siteId: 'demo42', feedId: 42 })).toEqual({
      outcome: 'sent',
      fileName: 'p.csv',
      status: 429,
      body: { success: false, message: 'wait' },
    });
  });

  it('answers canceled when the dialog is closed, and failed for an unknown site', async () => {
    const { actions, admin } = setup();
    expect(await actions.uploadFeedFile({ siteId: 'demo42', feedId: 42 })).toEqual({
      outcome: 'canceled',
    });
    expect(await actions.uploadFeedFile({ siteId: 'nope99', feedId: 42 })).toEqual({
      outcome: 'failed',
      message:
        'siteId nope99 is not an account of this sandbox (accounts: demo42); add it to the config file',
    });
    expect(admin.calls).toEqual([]);
  });
});

describe('AdminClient over HTTP', () => {
  async function recorder() {
    const requests: Array<{
      method: string;
      url: string;
      headers: http.IncomingHttpHeaders;
      body: string;
    }> = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        requests.push({
          method: req.method!,
          url: req.url!,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.setHeader('Content-Type', 'application/json');
        res.end('{"success":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as { port: number };
    return { requests, client: new AdminClient(`http://127.0.0.1:${port}`) };
  }

  it('asks for a report by format', async () => {
    const { requests, client } = await recorder();
    expect((await client.report('html')).status).toBe(200);
    expect(requests[0]).toMatchObject({ method: 'GET', url: '/_sandbox/report?format=html' });
    expect(requests[0]!.headers.origin).toBeUndefined();
  });

  it('posts an import body as JSON', async () => {
    const { requests, client } = await recorder();
    await client.importEvents('[{"a":1}]');
    expect(requests[0]).toMatchObject({
      method: 'POST',
      url: '/_sandbox/import',
      body: '[{"a":1}]',
    });
    expect(requests[0]!.headers['content-type']).toBe('application/json');
  });

  it('uploads a feed like a client: basic auth, multipart field feedFile, feedId and requestedBy in the query', async () => {
    const { requests, client } = await recorder();
    const dir = tempDir('desktop-upload-');
    cleanups.push(dir.cleanup);
    const file = path.join(dir.dir, 'products.csv');
    writeFileSync(file, 'uid,name\n1,Shoe\n');
    await client.uploadFeed({
      siteId: 'demo42',
      secretKey: 'demo-secret-key',
      feedId: 42,
      requestedBy: 'qa@example.com',
      filePath: file,
    });
    const req = requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/api/index/feed?feedId=42&requestedBy=qa%40example.com');
    expect(req.headers.authorization).toBe(
      `Basic ${Buffer.from('demo42:demo-secret-key').toString('base64')}`,
    );
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(req.body).toContain(
      'Content-Disposition: form-data; name="feedFile"; filename="products.csv"',
    );
    expect(req.body).toContain('uid,name\n1,Shoe\n');
  });
});

describe('importSummary', () => {
  it("puts the import endpoint's answer in words", () => {
    expect(
      importSummary({
        imported: 3,
        firstId: 'a',
        lastId: 'c',
        sections: ['feeds', 'outbox'],
        ignoredSections: ['search'],
      }),
    ).toBe(
      '3 events imported; their pages are on the Timelines screen.\nRestored: feeds, outbox.\nNot restored (unknown to this sandbox): search.',
    );
    expect(importSummary({ imported: 1, sections: [] })).toBe(
      '1 event imported; their pages are on the Timelines screen.',
    );
    expect(importSummary(null)).toBe('Imported.');
    expect(importSummary('plain text answer')).toBe('plain text answer');
  });
});
