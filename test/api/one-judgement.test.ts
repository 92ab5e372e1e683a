// One judgement: for any recording, the live sandbox and `check` of its export give the same findings
// (rule, severity, events, message, causedBy), page by page. Every corpus recording (the provider's client
// and planted faults) and every sample session goes in live (imported), comes out as the sandbox's export,
// and is checked offline.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import type { PageTimelineDto, TimelineReportDto } from '../../src/shared/timeline';
import { check, tempFile } from '../helpers/check';
import { startSandbox } from '../helpers/sandbox';

const FIXTURES = path.resolve(__dirname, '../../fixtures');
const recordings = [
  ...readdirSync(path.join(FIXTURES, 'corpus'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => path.join('corpus', f)),
  ...readdirSync(path.join(FIXTURES, 'sessions'))
    .filter((f) => f.endsWith('.ndjson'))
    .map((f) => path.join('sessions', f)),
];

let sandbox: Sandbox;
const cleanups: Array<() => unknown> = [];
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
  for (const c of cleanups) c();
});

/** What must not differ: per page, each finding's rule, severity, events, message and cause. */
function gist(pages: PageTimelineDto[]) {
  return Object.fromEntries(
    pages
      .map((p) => [
        p.pageLoadId,
        p.findings.map((f) => ({
          rule: f.rule,
          severity: f.severity,
          eventIds: [...f.eventIds].sort(),
          message: f.message,
          causedBy: f.causedBy ?? null,
        })),
      ])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
}

describe('the live sandbox and check of its export judge alike', () => {
  it.each(recordings)('%s', async (file) => {
    const base = sandbox.url;
    expect((await fetch(`${base}/_sandbox/reset`, { method: 'POST' })).status).toBe(200);
    const imported = await fetch(`${base}/_sandbox/import?replace=true`, {
      method: 'POST',
      body: readFileSync(path.join(FIXTURES, file), 'utf8'),
    });
    expect(imported.status, await imported.clone().text()).toBe(200);
    // live: the report judges every page as finished, as check does
    const live = (await (
      await fetch(`${base}/_sandbox/report?format=json`)
    ).json()) as TimelineReportDto;
    const exported = await (await fetch(`${base}/_sandbox/export`)).text();
    const offline = await check(tempFile(cleanups, 'export.json', exported), '--format', 'json');
    expect(offline.code, offline.err).toBeLessThan(2);
    const checked = JSON.parse(offline.out) as TimelineReportDto;
    expect(gist(checked.pages)).toEqual(gist(live.pages));
    expect(live.pages.map((p) => p.pageLoadId).sort()).toEqual(
      checked.pages.map((p) => p.pageLoadId).sort(),
    );
  });
});
