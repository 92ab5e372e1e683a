// The README's rule table and the package's type of rule ids (src/shared/rule-ids.generated.ts), made from the
// rules' own declarations (src/main/tracking/timeline/rule-list.ts): `npm run docs:rules` writes both;
// test/rules/rules.test.ts fails when either is out of date.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ruleInfos } from '../src/main/tracking/timeline/rule-list';

export const START =
  '<!-- rules:start (npm run docs:rules writes this table from the rules’ metas) -->';
export const END = '<!-- rules:end -->';
export const README = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../README.md');

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function rulesTable(): string {
  const rows = ruleInfos().map(
    (r) =>
      `| \`${r.id}\` | ${r.appliesTo.join(', ')} | ${r.defaultSeverity}${r.scope === 'page' ? '' : ` (once per ${r.scope})`} | ${cell(r.description)} | ${cell(r.fix)} |`,
  );
  return ['| rule | applies to | default | catches | fix |', '|---|---|---|---|---|', ...rows].join(
    '\n',
  );
}

export const RULE_IDS_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../src/shared/rule-ids.generated.ts',
);

/**
 * The union of every rule id, as the package's types take one (expectClean's rules, ignoreRules and rule):
 * a misspelt id is a type error. Formatted as prettier writes it.
 */
export function ruleIdsSource(): string {
  return [
    '// Written by `npm run docs:rules` from the rules’ own declarations (each rule module declares its id);',
    '// test/rules/rules.test.ts fails when it is out of date. Do not edit.',
    '',
    '/** A rule id the sandbox declares (`GET /_sandbox/rules` lists them): `missing-render`, `no-impression`, … */',
    'export type RuleId =',
    ...ruleInfos().map((r, i, all) => `  | '${r.id}'${i === all.length - 1 ? ';' : ''}`),
    '',
  ].join('\n');
}

/** The README with its table between the markers replaced by `table`. */
export function withTable(readme: string, table: string): string {
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  if (a < 0 || b < a) throw new Error(`README.md lacks the markers ${START} … ${END}`);
  // prettier keeps its hands off: the table is byte for byte what the metas make
  return `${readme.slice(0, a + START.length)}\n<!-- prettier-ignore-start -->\n${table}\n<!-- prettier-ignore-end -->\n${readme.slice(b)}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const readme = readFileSync(README, 'utf8');
  const next = withTable(readme, rulesTable());
  if (next !== readme) writeFileSync(README, next);
  const ids = ruleIdsSource();
  const wasIds = existsSync(RULE_IDS_FILE) ? readFileSync(RULE_IDS_FILE, 'utf8') : '';
  if (ids !== wasIds) writeFileSync(RULE_IDS_FILE, ids);
  console.log(
    ids === wasIds
      ? 'src/shared/rule-ids.generated.ts: up to date'
      : 'src/shared/rule-ids.generated.ts: written',
  );
  console.log(
    next === readme ? 'README.md: the rule table is up to date' : 'README.md: rule table written',
  );
}
