// GET /_sandbox/rules and sandbox.rules(): every rule as its module declares it (the documented contract, "Rules
// declared once"); the OpenAPI document's `rule` filter holds the same ids; expectClean and the config
// refuse an id no rule declares, naming the ids.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox, startSandbox, type StartedSandbox } from '../../src/main/api/index';
import type { RuleDetailDto, RuleInfoDto } from '../../src/shared/timeline';
import { RULE_METAS } from '../../src/main/tracking/timeline/rule-list';
import { startSandbox as startWith } from '../helpers/sandbox';
import { newPage, searchBody, send, sendBadPage } from '../e2e/helpers/beacons';

/** A production-mode page (no context.dev) of `session`: render and impression. */
async function productionPage(url: string, sessionId: string, userId: string) {
  const page = newPage({ sessionId, userId });
  for (const event of ['render', 'impression']) {
    const body = searchBody(event, page);
    delete (body.context as Record<string, unknown>).dev;
    await send(url, event, body);
  }
  return page;
}

let sandbox: StartedSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

const KINDS = [
  'search',
  'category',
  'autocomplete',
  'recommendations',
  'bundles',
  'product',
  'cart',
  'order',
  'login',
  'visit',
];

describe('the rule list', () => {
  it('serves each rule’s meta over HTTP and through the package', async () => {
    const res = await fetch(`${sandbox.url}/_sandbox/rules`);
    expect(res.status).toBe(200);
    const rules = (await res.json()) as RuleInfoDto[];
    expect(rules.map((r) => r.id)).toEqual(RULE_METAS.map((m) => m.id));
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    for (const r of rules) {
      expect(r.id).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(r.description.length, r.id).toBeGreaterThan(20);
      expect(r.fix.length, r.id).toBeGreaterThan(10);
      expect(['off', 'info', 'warning', 'error'], r.id).toContain(r.defaultSeverity);
      expect(['page', 'session', 'site'], r.id).toContain(r.scope);
      expect(r.appliesTo.length, r.id).toBeGreaterThan(0);
      for (const k of r.appliesTo) expect(KINDS, r.id).toContain(k);
    }
    expect(rules.find((r) => r.id === 'dev-flag')).toMatchObject({
      defaultSeverity: 'info',
      scope: 'session',
    });
    const client = await connectSandbox(sandbox.url);
    expect(await client.rules()).toEqual(rules);
    expect(await sandbox.rules()).toEqual(rules);
  });

  it('says which rules explain a rule’s findings, and of which of its messages when not all', async () => {
    const detail = async (id: string) =>
      (await (await fetch(`${sandbox.url}/_sandbox/rules/${id}`)).json()) as RuleDetailDto;
    const totals = await detail('order-totals');
    expect(totals).toMatchObject({
      explainedBy: ['price-unit-mismatch'],
      explainedMessages: ['linePrices'],
    });
    expect(totals.messages.map((m) => m.id)).toEqual(['totals', 'linePrices', 'unpriced']);
    const render = await detail('missing-render');
    expect(render.explainedBy).toEqual([
      'responseid-stale',
      'response-replaced',
      'click-under-other-response',
    ]);
    expect(render).not.toHaveProperty('explainedMessages');
  });

  it('declares the rule ids as the enum of the timelines’ rule filter, and refuses another', async () => {
    const doc = (await (await fetch(`${sandbox.url}/_sandbox/openapi.json`)).json()) as {
      paths: Record<
        string,
        { get: { parameters: Array<{ name: string; schema: { enum?: string[] } }> } }
      >;
    };
    for (const path of ['/_sandbox/timelines', '/_sandbox/report']) {
      const rule = doc.paths[path]!.get.parameters.find((p) => p.name === 'rule')!;
      expect(rule.schema.enum, path).toEqual(RULE_METAS.map((m) => m.id));
    }
    const bad = await fetch(`${sandbox.url}/_sandbox/timelines?rule=no-such-rule`);
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { parameter: string; allowed: string[]; message: string };
    expect(body.parameter).toBe('rule');
    expect(body.allowed).toContain('missing-render');
    expect(body.message).toContain('no-such-rule');
  });

  it('expectClean refuses a rules entry no rule declares, naming the ids', async () => {
    await expect(
      // @ts-expect-error a rule id no rule declares is a type error; from JavaScript, a TypeError
      sandbox.expectClean({ rules: { 'no-such-rule': 'off' }, allowEmpty: true }),
    ).rejects.toThrow(/"no-such-rule" is not a rule id; the rule ids are schema, .*missing-render/);
  });

  it('lists a session-scope finding once per session, while each page keeps it', async () => {
    const s = await startSandbox();
    try {
      const first = await productionPage(s.url, 'sess-a', 'user-a');
      const second = await productionPage(s.url, 'sess-a', 'user-a');
      const other = await productionPage(s.url, 'sess-b', 'user-b');
      const list = (await (await fetch(`${s.url}/_sandbox/timelines?view=summary`)).json()) as {
        pages: Array<{ pageLoadId: string; rules: string[] }>;
      };
      const rulesOf = (id: string) => list.pages.find((p) => p.pageLoadId === id)!.rules;
      expect(rulesOf(first.pageLoadId)).toContain('dev-flag');
      expect(rulesOf(second.pageLoadId)).not.toContain('dev-flag');
      expect(rulesOf(other.pageLoadId)).toContain('dev-flag');
      const full = (await (await fetch(`${s.url}/_sandbox/timelines`)).json()) as {
        pages: Array<{ pageLoadId: string; findings: Array<{ rule: string }> }>;
      };
      const devFlags = full.pages.flatMap((p) => p.findings.filter((f) => f.rule === 'dev-flag'));
      expect(devFlags).toHaveLength(2);
      // the page's own detail keeps it
      const detail = (await (
        await fetch(`${s.url}/_sandbox/timelines/${second.pageLoadId}`)
      ).json()) as {
        findings: Array<{ rule: string }>;
      };
      expect(detail.findings.map((f) => f.rule)).toContain('dev-flag');
      const html = await (await fetch(`${s.url}/_sandbox/report?format=junit`)).text();
      expect(html.match(/dev-flag/g)?.length).toBe(2);
    } finally {
      await s.close();
    }
  });

  it('page summaries name the rules the config set to another level, at the level in force', async () => {
    const s = await startWith({
      rules: { 'dev-flag': 'error', 'click-not-impressed-at-exit': 'warning', order: 'error' },
    });
    try {
      const prod = await productionPage(s.url, 'sess-a', 'user-a');
      const bad = await sendBadPage(s.url);
      const list = (await (await fetch(`${s.url}/_sandbox/timelines?view=summary`)).json()) as {
        pages: Array<{ pageLoadId: string; rules: string[]; severities?: Record<string, string> }>;
      };
      const of = (id: string) => list.pages.find((p) => p.pageLoadId === id)!;
      // a page rule, as counted
      expect(of(prod.pageLoadId).severities).toEqual({ 'dev-flag': 'error' });
      // a response rule, as its finding says; order is an error by default, so not named
      expect(of(bad.pageLoadId).rules).toContain('click-not-impressed-at-exit');
      expect(of(bad.pageLoadId).severities).toEqual({ 'click-not-impressed-at-exit': 'warning' });
    } finally {
      await s.close();
    }
  });
});
