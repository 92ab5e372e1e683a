// Reports: JUnit and HTML escape what storefronts send (URLs, uids, messages) and stay well-formed.
import { describe, expect, it } from 'vitest';
import { junitReport, terminalSafe, textReport } from '../../src/main/tracking/timeline/report';
import { htmlReport } from '../../src/main/tracking/timeline/report-html';
import { PageBuilder, run } from './timeline-events';
import type { PageTimelineDto } from '../../src/shared/timeline';

const NOW = Date.parse('2026-11-21T05:00:00.000Z');

function pages() {
  const p = new PageBuilder({
    pageLoadId: 'p<1>',
    pageUrl: 'http://shop/search?q=<script>alert(1)</script>&x=\u0007bell 👟',
  });
  return run([p.impression('r&1', ['"uid"'], { at: 0 }), p.click('r&1', '"uid"', { at: 100 })]);
}

describe('timeline reports', () => {
  it('JUnit: escaped attributes and text, control characters replaced by U+FFFD, other characters kept', () => {
    const xml = junitReport(pages(), 'a.har', NOW);
    expect(xml).toContain(
      'name="/search?q=&#60;script&#62;alert(1)&#60;/script&#62;&#38;x=\uFFFDbell 👟"',
    );
    expect(xml).not.toContain('\u0007');
    expect(xml).toMatch(
      /<failure type="missing-render" message="missing-render: [^"]+">page p&#60;1&#62; of session /,
    );
    expect(xml).toContain('responseId &#34;r&#38;1&#34;');
    expect(xml.match(/<testcase /g)).toHaveLength(1);
  });

  it('HTML: one self-contained document with everything escaped', () => {
    const html = htmlReport(pages(), 'a.har', NOW);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#60;script&#62;alert(1)');
    expect(html).not.toMatch(/<link |src=|href=/);
    expect(html).toContain('<span class="badge fail">FAIL</span>');
  });

  it('text: one line per page, each finding with its event ids, totals last', () => {
    const text = textReport(pages());
    expect(text.split('\n')[0]).toMatch(/^FAIL {2}demo42 {2}page p<1> /);
    expect(text).toMatch(/error {3}missing-render {2}\[ev_\d+, ev_\d+\]/);
    expect(text.trim().split('\n').pop()).toBe('1 page: 1 fail, 0 warn, 0 pass');
  });
});

describe('a finding about the whole session in the text report', () => {
  /** Three pages of one session, each holding a dev-flag finding at `severity` (as `--rule` raises it). */
  function session(severity: 'info' | 'warning' | 'error'): PageTimelineDto[] {
    const [page] = pages();
    return ['p-1', 'p-2', ''].map((pageLoadId, i) => ({
      ...page!,
      pageLoadId,
      verdict: severity === 'info' ? 'pass' : severity === 'warning' ? 'warn' : 'fail',
      findings: [
        {
          ...page!.findings[0]!,
          id: 'dev-flag',
          rule: 'dev-flag',
          severity,
          eventIds: [`ev_${i}`],
          eventCount: 1,
        },
      ],
    }));
  }

  it('names a warning or error on every page it makes, told in full on the first', () => {
    for (const severity of ['warning', 'error'] as const) {
      const lines = textReport(session(severity)).split('\n');
      const flags = lines.filter((l) => / dev-flag /.test(l));
      expect(flags).toEqual([
        `  ${severity.padEnd(7)} dev-flag  [ev_0]`,
        `  ${severity.padEnd(7)} dev-flag  [ev_1]  (about the whole session: told with page p-1)`,
        `  ${severity.padEnd(7)} dev-flag  [ev_2]  (about the whole session: told with page p-1)`,
      ]);
      // its message and fix once, under the first page
      expect(lines.filter((l) => l.includes('fix:'))).toHaveLength(1);
    }
  });

  it('HTML names it on every later page too, in a line without its message', () => {
    const html = htmlReport(session('warning'), 'a.har', NOW);
    expect(html.match(/about the whole session: told with page p-1/g)).toHaveLength(2);
    // the summary's row of the rule, and each of the three pages
    expect(html.match(/<b>dev-flag<\/b>/g)).toHaveLength(4);
    // its message and fix once, on the first page
    expect(html.match(/<div class="fix">/g)).toHaveLength(1);
    expect(html).not.toContain('No findings.');
    const info = htmlReport(session('info'), 'a.har', NOW);
    expect(info).not.toContain('told with page');
  });

  it('JUnit fails the page it is told on, and names it in the later cases’ system-out', () => {
    const xml = junitReport(session('error'), 'a.har', NOW);
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml).toContain('failures="1"');
    expect(
      xml.match(
        /\[error\] dev-flag: about the whole session, told with page p-1\n {2}events: ev_\d/g,
      ),
    ).toHaveLength(2);
  });

  it('leaves an info finding on the first page only: it makes no verdict', () => {
    const flags = textReport(session('info'))
      .split('\n')
      .filter((l) => / dev-flag /.test(l));
    expect(flags).toEqual(['  info    dev-flag  [ev_0]']);
  });
});

describe('a text report line for a terminal', () => {
  it('escapes controls but the tab, C1 controls, line separators and lone surrogates; keeps the rest', () => {
    const kept = ['\t', ' ', '~', '\u00a0', 'é', '\u2027', '\u202a', '\ud83d\ude00', '\uffff'];
    for (const c of kept) expect(terminalSafe(`a${c}b`)).toBe(`a${c}b`);
    const escaped: Array<[string, string]> = [
      ['\u0000', '\\u0000'],
      ['\u0008', '\\u0008'],
      ['\n', '\\u000a'],
      ['\r', '\\u000d'],
      ['\u001b', '\\u001b'],
      ['\u001f', '\\u001f'],
      ['\u007f', '\\u007f'],
      ['\u009f', '\\u009f'],
      ['\u2028', '\\u2028'],
      ['\u2029', '\\u2029'],
      ['\ud83d', '\\ud83d'],
      ['\ude00', '\\ude00'],
    ];
    for (const [c, shown] of escaped) expect(terminalSafe(`a${c}b`)).toBe(`a${shown}b`);
    // a pair is one character; each half alone is escaped, at either end
    expect(terminalSafe('\ude00\ud83d\ude00\ud83d')).toBe('\\ude00\ud83d\ude00\\ud83d');
  });
});
