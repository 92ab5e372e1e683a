// Actions in real Chromium: download the reports, export the sandbox, reset it (pages vanish live), import
// the export back (pages return), and move the clock from the top bar's popover.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendBadPage, sendGoodPage } from './helpers/beacons';
import { openUi, skipReason, type UiSession } from './helpers/ui';

const skip = skipReason();
if (skip) console.warn(skip);

describe.skipIf(skip)('actions UI', () => {
  let s: UiSession;

  beforeAll(async () => {
    s = await openUi();
    await sendGoodPage(s.sandbox.url);
    await sendBadPage(s.sandbox.url);
  });
  afterAll(async () => {
    await s?.close();
  });

  async function download(testId: string): Promise<string> {
    const [file] = await Promise.all([
      s.page.waitForEvent('download'),
      s.ui.testId(testId).click(),
    ]);
    return readFileSync((await file.path())!, 'utf8');
  }

  it('downloads the report as HTML, JUnit and JSON', async () => {
    await s.ui.open('#/actions');
    expect(await download('report-html')).toMatch(/<html/i);
    const junit = await download('report-junit');
    expect(junit).toContain('<testsuite');
    expect((junit.match(/<testcase/g) ?? []).length).toBe(2);
    const json = JSON.parse(await download('report-json')) as { verdicts: Record<string, number> };
    expect(json.verdicts).toMatchObject({ pass: 1, fail: 1 });
  });

  it('exports, resets (the list empties live) and imports the export back', async () => {
    await s.ui.open('#/actions');
    const exported = await download('export');
    expect((JSON.parse(exported) as { events: unknown[] }).events).toHaveLength(8);

    await s.ui.testId('reset-events').click();
    await s.ui.testId('reset-events-confirm').click();
    await expect
      .poll(() => s.ui.testId('reset-result').textContent())
      .toContain('All events forgotten');
    await s.ui.nav('timelines');
    await s.ui.testId('timelines-empty').waitFor();

    await s.ui.nav('actions');
    await s.ui.testId('import-input').setInputFiles({
      name: 'export.json',
      mimeType: 'application/json',
      buffer: Buffer.from(exported),
    });
    await expect
      .poll(() => s.ui.testId('import-result').textContent())
      .toContain('Imported export.json');
    await s.ui.nav('timelines');
    await expect.poll(() => s.ui.testId('page-row').count()).toBe(2);
    await s.ui.nav('actions');
    await s.ui.screenshot('actions');
  });

  it('moves the sandbox clock from the top bar on any screen', async () => {
    await s.ui.open('#/timelines');
    await s.ui.testId('clock-button').click();
    const popover = s.page.locator('#clock-popover');
    await popover.waitFor();
    const before = Date.parse((await popover.getByTestId('clock-now').getAttribute('data-now'))!);
    await popover.getByTestId('clock-plus-day').click();
    await expect.poll(() => popover.getByTestId('clock-offset').textContent()).toMatch(/^\+1 d/);
    const after = Date.parse((await popover.getByTestId('clock-now').getAttribute('data-now'))!);
    expect(after - before).toBeGreaterThanOrEqual(86_400_000);
    const server = (await (await fetch(`${s.sandbox.url}/_sandbox/clock`)).json()) as {
      offsetMs: number;
    };
    expect(server.offsetMs).toBeGreaterThanOrEqual(86_400_000 - 1000);

    await popover.getByTestId('clock-reset').click();
    await expect.poll(() => popover.getByTestId('clock-offset').textContent()).toBe('real time');
    await s.page.keyboard.press('Escape');
    await popover.waitFor({ state: 'hidden' });
  });
});
