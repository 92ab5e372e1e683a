// What the menus and `window.sandboxDesktop` do: native dialogs around the sandbox's public operations
// (report, import, reset, the real feed upload), with every failure told to the user in a dialog.
import { existsSync } from 'node:fs';
import { readRecordingText } from '../recordings/read';
import { replaceOwnFile } from '../store/durable';
import { openRecording } from '../recordings/source';
import path from 'node:path';
import type {
  FeedUploadRequest,
  FeedUploadResult,
  OpenDataDirectoryResult,
} from '../../preload/index.d';
import type { ResetScope } from '../core';
import type { AccountConfig } from '../accounts/config';
import {
  REPORT_FORMATS,
  bodyForUi,
  failureReason,
  type HttpOutcome,
  type ReportFormat,
  type FeedUploadRequest as UploadCall,
} from './admin-client';
import type { BrowserWindowLike, DialogLike, ShellLike } from './electron-api';
import { InputError, prepareImport, type PreparedImport } from './import-file';

/** The admin operations the actions call (AdminClient over HTTP in the app, a fake in tests). */
export interface SandboxAdmin {
  report(format: ReportFormat): Promise<HttpOutcome>;
  importEvents(json: string): Promise<HttpOutcome>;
  uploadFeed(request: UploadCall): Promise<HttpOutcome>;
}

export interface ActionDeps {
  dialog: DialogLike;
  shell: ShellLike;
  /** the app window, when one is open (dialogs are modal to it) */
  window: () => BrowserWindowLike | null;
  sandboxUrl: string;
  accounts: AccountConfig[];
  /** core.reset: forgets events/timelines and issued search responses (and feeds/outbox with what: 'all') */
  reset: (scope: ResetScope) => Promise<void>;
  admin: SandboxAdmin;
  dataDir: string;
  readmePath: string | null;
  /** local time for default file names; injected so tests are deterministic */
  now: () => Date;
  saveFile?: (file: string, data: Buffer) => Promise<void>;
}

export const FEED_FILE_FILTERS = [
  {
    name: 'Feed files',
    extensions: ['csv', 'tsv', 'txt', 'json', 'ndjson', 'jsonl', 'xml', 'gz', 'zip'],
  },
  { name: 'All files', extensions: ['*'] },
];

export const TRAFFIC_FILE_FILTERS = [
  { name: 'Recorded beacon traffic', extensions: ['har', 'zip', 'ndjson', 'jsonl', 'json'] },
  { name: 'All files', extensions: ['*'] },
];

export class DesktopActions {
  private readonly saveFile: (file: string, data: Buffer) => Promise<void>;

  constructor(private readonly deps: ActionDeps) {
    this.saveFile = deps.saveFile ?? replaceOwnFile;
  }

  /** File → Import: a DevTools HAR, NDJSON of events or a sandbox export, through POST /_sandbox/import. */
  async importTraffic(): Promise<void> {
    const choice = await this.deps.dialog.showOpenDialog(this.deps.window(), {
      title: 'Import recorded beacon traffic',
      buttonLabel: 'Import',
      filters: TRAFFIC_FILE_FILTERS,
      properties: ['openFile'],
    });
    const file = choice.filePaths[0];
    if (choice.canceled || !file) return;
    const name = path.basename(file);
    let prepared: PreparedImport;
    try {
      // the one recordings reader: a directory or a device is refused, the size capped, a HAR's bodies
      // kept apart (a Playwright zip, side files) read with it
      const { text, bodies } = await readRecordingText(openRecording(file));
      prepared = prepareImport(text, name, bodies);
    } catch (err) {
      const reason = err instanceof InputError ? err.message : `${name}: ${(err as Error).message}`;
      await this.error(`Could not read ${name}`, reason);
      return;
    }
    if (prepared.count === 0) {
      await this.info(
        `Nothing to import from ${name}`,
        ['The file holds no search events this sandbox can place.', ...prepared.notes].join('\n'),
      );
      return;
    }
    const outcome = await this.call(`import ${name}`, () =>
      this.deps.admin.importEvents(prepared.body),
    );
    if (!outcome) return;
    if (outcome.status >= 400) {
      await this.error(
        `Could not import ${name}`,
        `The sandbox refused it (HTTP ${outcome.status}): ${failureReason(outcome)}`,
      );
      return;
    }
    await this.info(
      `Imported ${name}`,
      [importSummary(bodyForUi(outcome)), ...prepared.notes].join('\n'),
    );
  }

  /** File → Export report: GET /_sandbox/report?format=…, saved where the user says. */
  async exportReport(format: ReportFormat): Promise<void> {
    const { label, extension } = REPORT_FORMATS[format];
    const outcome = await this.call(`export the ${label}`, () => this.deps.admin.report(format));
    if (!outcome) return;
    if (outcome.status >= 400) {
      await this.error(
        `Could not export the ${label}`,
        `The sandbox answered HTTP ${outcome.status}: ${failureReason(outcome)}`,
      );
      return;
    }
    const stamp = this.deps.now().toISOString().slice(0, 19).replace(/[:T]/g, '-');
    const choice = await this.deps.dialog.showSaveDialog(this.deps.window(), {
      title: `Export ${label}`,
      defaultPath: `search-sandbox-report-${stamp}.${extension}`,
      filters: [{ name: label, extensions: [extension] }],
    });
    if (choice.canceled || !choice.filePath) return;
    try {
      await this.saveFile(choice.filePath, outcome.body);
    } catch (err) {
      await this.error(
        `Could not save the ${label}`,
        `${choice.filePath}: ${(err as Error).message}. Pick a folder you can write to.`,
      );
    }
  }

  /** File → Reset: asks what to forget, then core.reset. */
  async resetSandbox(): Promise<ResetScope | null> {
    const { response } = await this.deps.dialog.showMessageBox(this.deps.window(), {
      type: 'question',
      title: 'Reset the sandbox',
      message: 'What should the sandbox forget?',
      detail:
        'Events and timelines: every recorded tracking request and its findings, and the search responses the sandbox issued, for all sites.\n' +
        'Everything: also feeds (back to the config) and the outbox.\nThis cannot be undone.',
      buttons: ['Cancel', 'Events and timelines', 'Everything'],
      defaultId: 0,
      cancelId: 0,
    });
    if (response !== 1 && response !== 2) return null;
    const scope: ResetScope = { what: response === 2 ? 'all' : 'events' };
    try {
      await this.deps.reset(scope);
    } catch (err) {
      await this.error('Reset failed', (err as Error).message);
      return null;
    }
    return scope;
  }

  /** Help → open the sandbox in the system browser (the UI works there too). */
  async openInBrowser(): Promise<void> {
    await this.deps.shell.openExternal(`${this.deps.sandboxUrl}/`);
  }

  async openReadme(): Promise<void> {
    const readme = this.deps.readmePath;
    const problem = readme
      ? await this.deps.shell.openPath(readme)
      : 'the README is not part of this installation';
    if (problem)
      await this.error(
        'Could not open the README',
        `${problem}. The sandbox's own UI at ${this.deps.sandboxUrl} has the Connect guide.`,
      );
  }

  async openDataDirectory(): Promise<OpenDataDirectoryResult> {
    const problem = await this.deps.shell.openPath(this.deps.dataDir);
    return { path: this.deps.dataDir, error: problem || null };
  }

  /** `window.sandboxDesktop.uploadFeedFile`: a native file dialog, then the real POST /api/index/feed. */
  async uploadFeedFile(request: FeedUploadRequest): Promise<FeedUploadResult> {
    const account = this.deps.accounts.find((a) => a.siteId === request.siteId);
    if (!account) {
      const known = this.deps.accounts.map((a) => a.siteId).join(', ') || 'none';
      return {
        outcome: 'failed',
        message: `siteId ${request.siteId} is not an account of this sandbox (accounts: ${known}); add it to the config file`,
      };
    }
    const choice = await this.deps.dialog.showOpenDialog(this.deps.window(), {
      title: `Upload a feed file to feed ${request.feedId} of ${request.siteId}`,
      buttonLabel: 'Upload',
      filters: FEED_FILE_FILTERS,
      properties: ['openFile'],
    });
    const file = choice.filePaths[0];
    if (choice.canceled || !file) return { outcome: 'canceled' };
    try {
      const outcome = await this.deps.admin.uploadFeed({
        ...request,
        secretKey: account.secretKey,
        filePath: file,
      });
      return {
        outcome: 'sent',
        fileName: path.basename(file),
        status: outcome.status,
        body: bodyForUi(outcome),
      };
    } catch (err) {
      return {
        outcome: 'failed',
        message: `could not upload ${path.basename(file)}: ${(err as Error).message}`,
      };
    }
  }

  /** Run an HTTP call, turning a refused connection into a dialog rather than an unhandled rejection. */
  private async call(what: string, fn: () => Promise<HttpOutcome>): Promise<HttpOutcome | null> {
    try {
      return await fn();
    } catch (err) {
      await this.error(
        `Could not ${what}`,
        `${(err as Error).message} (sandbox at ${this.deps.sandboxUrl})`,
      );
      return null;
    }
  }

  private async info(message: string, detail: string): Promise<void> {
    await this.deps.dialog.showMessageBox(this.deps.window(), {
      type: 'info',
      title: 'Search Sandbox',
      message,
      detail,
      buttons: ['OK'],
    });
  }

  private async error(message: string, detail: string): Promise<void> {
    await this.deps.dialog.showMessageBox(this.deps.window(), {
      type: 'error',
      title: 'Search Sandbox',
      message,
      detail,
      buttons: ['OK'],
    });
  }
}

/** What POST /_sandbox/import answered ({imported, sections, ignoredSections}), in a sentence or two. */
export function importSummary(body: unknown): string {
  if (typeof body !== 'object' || body === null)
    return typeof body === 'string' && body ? body.slice(0, 300) : 'Imported.';
  const b = body as { imported?: unknown; sections?: unknown; ignoredSections?: unknown };
  const lines: string[] = [];
  if (typeof b.imported === 'number')
    lines.push(
      `${b.imported} event${b.imported === 1 ? '' : 's'} imported; their pages are on the Timelines screen.`,
    );
  if (Array.isArray(b.sections) && b.sections.length > 0)
    lines.push(`Restored: ${b.sections.join(', ')}.`);
  if (Array.isArray(b.ignoredSections) && b.ignoredSections.length > 0)
    lines.push(`Not restored (unknown to this sandbox): ${b.ignoredSections.join(', ')}.`);
  return lines.length > 0 ? lines.join('\n') : 'Imported.';
}

/** The README shipped with the app, if any copy of it can be opened by the system (not inside an asar). */
export function findReadme(candidates: string[]): string | null {
  return candidates.find((file) => !file.includes(`.asar${path.sep}`) && existsSync(file)) ?? null;
}
