// expectClean's failure message when a bug repeats on every page: a tally by rule on top (worst first),
// a few pages in full with their links and fixes, the rest folded into one line that says where they all are.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type StartedSandbox } from '../../src/main/api/index';
import {
  newPage,
  searchBody,
  send,
  sendBadPage,
  sendWarnPage,
  SITE_ID,
} from '../e2e/helpers/beacons';

let sandbox: StartedSandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset({ what: 'all' }));

/** A page that sends its impression and never the render: one missing-render error. */
async function sendUnrenderedPage(n: number): Promise<void> {
  const page = newPage({ pageUrl: `https://shop.example.com/search?q=shirt&p=${n}` });
  await send(sandbox.url, 'impression', searchBody('impression', page));
}

const failure = (options: Parameters<StartedSandbox['expectClean']>[0]) =>
  sandbox.expectClean(options).then(
    () => 'expectClean passed',
    (e: Error) => e.message,
  );

describe('expectClean when the same bug is on every page', () => {
  it('counts a rule found twice on one page as on 1 page', async () => {
    const page = newPage();
    for (const responseId of ['r-a', 'r-b'])
      await send(sandbox.url, 'impression', searchBody('impression', page, { responseId }));
    const message = await failure({ siteId: SITE_ID });
    expect(message.split('\n')[1]).toBe('by rule: missing-render ×2 on 1 page (error)');
  });

  it('tallies the rules on top, shows the first pages in full and folds the rest into one line', async () => {
    for (let i = 0; i < 40; i++) await sendUnrenderedPage(i);
    const message = await failure({ siteId: SITE_ID });
    const lines = message.split('\n');
    expect(lines.slice(0, 2)).toEqual([
      'expectClean failed (siteId=demo42, failOn=error): 40 findings on 40 of 40 pages',
      'by rule: missing-render ×40 (error)',
    ]);
    // the first pages in full: their links and the finding's fix
    expect(lines.filter((l) => l.startsWith('page '))).toHaveLength(3);
    expect(lines.filter((l) => l.startsWith('  open: '))).toHaveLength(3);
    expect(lines.filter((l) => l.startsWith('    fix: '))).toHaveLength(3);
    expect(lines).toContain(
      '… and 37 more pages with findings of the rules above: missing-render ×37 (error)',
    );
    // every page stays reachable: the report of all of them, the one a failed Playwright test gets attached
    expect(message).toContain(
      `Every page and finding: ${sandbox.url}/_sandbox/report?format=html&siteId=demo42&failOn=error`,
    );
    const report = await fetch(
      `${sandbox.url}/_sandbox/report?format=html&siteId=demo42&failOn=error`,
    );
    expect(report.status).toBe(200);
    expect((await report.text()).match(/missing-render/g)!.length).toBeGreaterThanOrEqual(40);
    // one screen, not one block per page
    expect(lines.length).toBeLessThan(40);
    expect(message.length).toBeLessThan(4000);
  });

  it('shows both of two pages in full, with no fold line', async () => {
    await sendUnrenderedPage(1);
    await sendUnrenderedPage(2);
    const message = await failure({ siteId: SITE_ID });
    const lines = message.split('\n');
    expect(lines[1]).toBe('by rule: missing-render ×2 (error)');
    expect(lines.filter((l) => l.startsWith('page '))).toEqual([
      'page https://shop.example.com/search?q=shirt&p=1',
      'page https://shop.example.com/search?q=shirt&p=2',
    ]);
    expect(message).not.toContain('more page');
  });

  it('orders the tally by severity, then by how many pages, and shows each rule in full once', async () => {
    // warnings on more pages than any error: the errors still come first
    for (let i = 0; i < 5; i++) await sendWarnPage(sandbox.url);
    for (let i = 0; i < 2; i++) await sendUnrenderedPage(i);
    await sendBadPage(sandbox.url);
    const message = await failure({ siteId: SITE_ID, failOn: 'warning' });
    const pages = await sandbox.timelines({ siteId: SITE_ID, finished: true } as never);
    const tally = new Map<string, { severity: string; pages: number; findings: number }>();
    for (const p of pages)
      for (const [i, f] of p.findings.entries()) {
        if (f.severity === 'info') continue;
        const t = tally.get(f.rule) ?? { severity: f.severity, pages: 0, findings: 0 };
        t.findings++;
        if (p.findings.findIndex((x) => x.rule === f.rule) === i) t.pages++;
        tally.set(f.rule, t);
      }
    const rank = (s: string) => (s === 'error' ? 2 : s === 'warning' ? 1 : 0);
    const expected = [...tally]
      .sort((a, b) => rank(b[1].severity) - rank(a[1].severity) || b[1].pages - a[1].pages)
      .map(([rule]) => rule);
    const byRule = /^by rule: (.*)$/m.exec(message)![1]!;
    const named = byRule.split(', ').map((e) => e.split(' ')[0]);
    expect(named).toEqual(expected);
    expect(byRule).toMatch(/^missing-render ×3 on 3 pages|^missing-render ×\d+ \(error/);
    expect(byRule).toContain('duplicate-impression ×5 (warning)');
    expect(named.indexOf('duplicate-impression')).toBeGreaterThan(named.indexOf('missing-render'));
    // each rule's message and fix is shown on a page in full, the worst first, though the warned pages
    // came first and three pages in full would have been only those
    for (const rule of named) expect(message).toMatch(new RegExp(`\\n {2}(↳ )?\\w+ ${rule}[ :,(]`));
    const blocks = message.split('\n\npage ').slice(1);
    expect(blocks[0]).toMatch(/\n {2}error missing-render: /);
    expect(blocks.length).toBeLessThan(8);
    expect(message).toMatch(/\n… and \d+ more pages? with findings of the rules above: /);
  });
});
