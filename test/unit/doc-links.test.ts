// The links between the README and docs/*.md lead somewhere: every relative link names a file of the
// repository, and a link into a Markdown file's section names a heading it has, as GitHub anchors them
// (and as npm's page of the package shows the README).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, USER_DOCS } from '../helpers/user-docs';

/** The text outside fenced blocks, where a heading is a heading. */
function unfenced(text: string): string {
  return text.replace(/^```[^]*?^```/gm, '');
}

/** The text outside fenced blocks and code spans, where a link is a link. */
function prose(text: string): string {
  return unfenced(text).replace(/`[^`\n]*`/g, '');
}

/** A heading's anchor as GitHub makes it: lower case, punctuation out, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

const anchorsRead = new Map<string, Set<string>>();

/** The anchors of a Markdown file's headings; a repeated one gets -1, -2, … as GitHub numbers them. */
function anchors(file: string): Set<string> {
  let known = anchorsRead.get(file);
  if (!known) anchorsRead.set(file, (known = headingAnchors(file)));
  return known;
}

function headingAnchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of unfenced(readFileSync(path.join(REPO_ROOT, file), 'utf8')).matchAll(
    /^#{1,6} (.+)$/gm,
  )) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

describe('links in the README and docs', () => {
  it('makes anchors as GitHub does', () => {
    expect(slug('`check` on a million events')).toBe('check-on-a-million-events');
    expect(slug('What is left: readiness')).toBe('what-is-left-readiness');
    expect(slug('startSandbox(options)')).toBe('startsandboxoptions');
    expect(slug('Pass-through to the real services: what is sent where')).toBe(
      'pass-through-to-the-real-services-what-is-sent-where',
    );
  });

  it.each(USER_DOCS)('%s: every relative link names a file, and a section its file has', (doc) => {
    const broken: string[] = [];
    for (const m of prose(readFileSync(path.join(REPO_ROOT, doc), 'utf8')).matchAll(
      /\]\(([^)\s]+)\)/g,
    )) {
      const target = m[1]!;
      if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const resolved =
        file === '' ? doc : path.posix.normalize(path.posix.join(path.posix.dirname(doc), file));
      if (!existsSync(path.join(REPO_ROOT, resolved))) {
        broken.push(`${target}: no file ${resolved}`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md') && !anchors(resolved).has(anchor))
        broken.push(`${target}: ${resolved} has no heading whose anchor is #${anchor}`);
    }
    expect(broken).toEqual([]);
  });
});
