// The user's documentation: the README and docs/*.md, as paths from the repository's root, in a stable order.
// The project's own docs, never a folder beside the checkout: a user's clone has only the repository.
import { readdirSync } from 'node:fs';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../..');

export const USER_DOCS: readonly string[] = [
  'README.md',
  ...readdirSync(path.join(REPO_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
