// Reports: JUnit and HTML escape what storefronts send (URLs, uids, messages) and stay well-formed.
import { describe, expect, it } from 'vitest';
import { junitReport, textReport } from '../../src/main/tracking/timeline/report';
import { htmlReport } from '../../src/main/tracking/timeline/report-html';
import { PageBuilder, run } from './timeline-events';

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
      'name="page p&#60;1&#62; http://shop/search?q=&#60;script&#62;alert(1)&#60;/script&#62;&#38;x=\uFFFDbell 👟"',
    );
    expect(xml).not.toContain('\u0007');
    expect(xml).toContain('<failure type="missing-render" message="1 error: missing-render">');
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
