// The README's rule table, made from the rules' own declarations
// (src/main/tracking/timeline/rule-list.ts): `npm run docs:rules` writes it between its markers;
// test/rules/rules.test.ts fails when it is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
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
  console.log(
    next === readme ? 'README.md: the rule table is up to date' : 'README.md: rule table written',
  );
}
