// A HAR as Playwright's `recordHar` saves it when told to keep bodies out of the HAR: `content: 'attach'`
// (each body in a file beside the HAR, named by its SHA-1, `_file` in the HAR) and a `.zip` path (the HAR
// as har.har in a zip, with those files beside it), made from a HAR whose bodies are inline.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { zipOf } from './zip';

interface Har {
  log: { entries: Array<{ request: { postData?: { text?: string; _file?: string } } }> };
}

/** The HAR `harText` with its request bodies moved to side files: the HAR's text and the files. */
export function attachBodies(harText: string): {
  har: Har;
  files: Array<[name: string, text: string]>;
} {
  const har = JSON.parse(harText) as Har;
  const files = new Map<string, string>();
  for (const { request } of har.log.entries) {
    const post = request.postData;
    if (!post || typeof post.text !== 'string' || post.text === '') continue;
    const name = `${createHash('sha1').update(post.text).digest('hex')}.txt`;
    files.set(name, post.text);
    post.text = '';
    post._file = name;
  }
  return { har, files: [...files] };
}

/**
 * Writes, in `dir`, `name`.har saved with `content: 'attach'` (and its side files, in a folder of its own
 * so the zip's do not mix) and `name`.zip; returns their paths.
 */
export function writePlaywrightHars(
  harText: string,
  dir: string,
  name = 'run',
): { attach: string; zip: string; files: string[] } {
  const { har, files } = attachBodies(harText);
  const folder = path.join(dir, 'attach');
  mkdirSync(folder, { recursive: true });
  const attach = path.join(folder, `${name}.har`);
  writeFileSync(attach, JSON.stringify(har, null, 2));
  for (const [file, text] of files) writeFileSync(path.join(folder, file), text);
  const zip = path.join(dir, `${name}.zip`);
  writeFileSync(zip, zipOf([['har.har', JSON.stringify(har)], ...files]));
  return { attach, zip, files: files.map(([file]) => file) };
}
