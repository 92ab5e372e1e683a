// docs/writing-rules.md's example rule, run verbatim: its module loads (defineRule refuses a rule whose
// declarations disagree), the behaviour it guards is in the client model, and its handler names the
// redirect of a response the way the doc says.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { behaviour } from '../../src/main/tracking/client-model';
import { findingDto, type Finding } from '../../src/main/tracking/finding';
import type { ResponseRuleContext } from '../../src/main/tracking/timeline/rules/types';
import { PageBuilder, engineAt } from '../unit/timeline-events';

const DOC = readFileSync(path.resolve(__dirname, '../../docs/writing-rules.md'), 'utf8');
const RULES_DIR = path.resolve(__dirname, '../../src/main/tracking/timeline/rules');
const dir = mkdtempSync(path.join(tmpdir(), 'writing-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('docs/writing-rules.md', () => {
  it('its example rule loads as written and reports what the doc says', async () => {
    const block = /```ts\n([\s\S]*?)```/.exec(DOC)?.[1];
    expect(block).toContain('defineRule');
    // the snippet as it would sit in the rules folder: its relative import points there
    const file = path.join(dir, 'redirect-example.ts');
    writeFileSync(file, block!.replace("from './types'", `from '${RULES_DIR}/types'`));
    const { redirectExample } = (await import(file)) as {
      redirectExample: {
        meta: { id: string; guards: readonly string[] };
        response: (r: unknown, ctx: ResponseRuleContext) => Finding[];
      };
    };
    expect(redirectExample.meta.id).toBe('redirect-example');
    for (const g of redirectExample.meta.guards) expect(behaviour(g), g).toBeDefined();

    const { engine } = engineAt();
    engine.apply(new PageBuilder().redirect('r7', '/pages/gift-cards', { at: 0 }));
    const [page] = engine.list();
    const response = [...page!.responses.values()][0]!;
    const found = redirectExample.response(response, {} as ResponseRuleContext);
    expect(found.map(findingDto).map((f) => [f.messageId, f.message])).toEqual([
      ['redirected', 'responseId "r7" redirected to /pages/gift-cards.'],
    ]);
  });
});
