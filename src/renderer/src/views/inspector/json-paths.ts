// Where a validation error belongs in a pretty-printed body: its own line when the path exists, else the
// nearest parent that does (a missing key is shown under the object it is missing from).
import type { ValidationIssue } from '../../api/types';

/** Drop the last segment of a dotted/bracketed path: `a.b[2].c` → `a.b[2]` → `a.b` → `a` → ''. */
function parentPath(path: string): string {
  const m = /^(.*?)(\.[^.[\]]+|\[\d+\])$/.exec(path);
  return m ? m[1]! : '';
}

/** Which rendered line each issue belongs to; `missing` when the exact path is not in the body. */
export function placeIssues(
  paths: Set<string>,
  issues: ValidationIssue[],
): Map<string, Array<{ issue: ValidationIssue; missing: boolean }>> {
  const placed = new Map<string, Array<{ issue: ValidationIssue; missing: boolean }>>();
  for (const issue of issues) {
    let p = issue.path ?? '';
    let missing = false;
    while (p && !paths.has(p)) {
      p = parentPath(p);
      missing = true;
    }
    const list = placed.get(p) ?? [];
    list.push({ issue, missing });
    placed.set(p, list);
  }
  return placed;
}
