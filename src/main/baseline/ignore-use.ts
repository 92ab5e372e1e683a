// Which `--ignore` paths left something out, so that a path that matched nothing (a typo: data.result[].price
// for data.results[].price) is said, with the nearest path that does occur, the way a linter reports a
// disable directive that disabled nothing.
import { isObject } from '../../shared/values';
import { nearestTypo } from '../../shared/nearest';
import { neverCompared, type IgnorePath } from './normalize';

/** The field paths kept for suggestions: beacon bodies have a few hundred; a cap keeps a strange one cheap. */
const MAX_SHAPES = 20_000;

export interface UnusedIgnore {
  /** the path as given */
  path: string;
  /** the nearest path the recordings do have, if any is near */
  nearest: string | null;
  /**
   * why it left nothing out, when it is not a typo: a field no comparison reads (`context.userId`), or the
   * path given again (the first left it out)
   */
  why?: 'never-compared' | 'repeated';
}

export class IgnoreUse {
  private readonly matched = new Set<number>();
  /** the field paths (`data.results[].price`) and URL parameters (`query.token`) seen, while one is unmatched */
  private readonly shapes = new Set<string>();

  constructor(
    private readonly paths: readonly IgnorePath[],
    /** each path as the user wrote it */
    private readonly given: readonly string[],
  ) {}

  /** Every path has matched: nothing more to learn (and no walk of the fields). */
  private get done(): boolean {
    return this.matched.size === this.paths.length;
  }

  /** The path at `index` of the list left something out. */
  used(index: number): void {
    this.matched.add(index);
  }

  /** A URL parameter a page had; `--ignore query.NAME` for it is used when it names it. */
  param(name: string, ignored: boolean): void {
    if (ignored) {
      const at = this.paths.findIndex((p) => p.length === 2 && p[0] === 'query' && p[1] === name);
      if (at >= 0) this.matched.add(at);
    } else if (!this.done && this.shapes.size < MAX_SHAPES) this.shapes.add(`query.${name}`);
  }

  /** The fields an event kept after the paths were applied: the paths a typo may have meant. */
  fields(fields: Record<string, unknown>): void {
    if (!this.done) this.walk(fields, '');
  }

  private walk(value: unknown, at: string): void {
    if (this.shapes.size >= MAX_SHAPES) return;
    if (Array.isArray(value)) {
      const each = `${at}[]`;
      this.shapes.add(each);
      for (const v of value) this.walk(v, each);
    } else if (isObject(value))
      for (const k of Object.keys(value)) {
        const path = at === '' ? k : `${at}.${k}`;
        this.shapes.add(path);
        this.walk(value[k], path);
      }
  }

  /**
   * The paths that left nothing out of either recording: a field never compared, or one given twice, said
   * as such; else (a typo, most often) with the nearest one that occurs.
   */
  unused(): UnusedIgnore[] {
    const shapes = [...this.shapes];
    const out: UnusedIgnore[] = [];
    this.given.forEach((path, i) => {
      if (this.matched.has(i)) return;
      if (this.given.indexOf(path) < i) out.push({ path, nearest: null, why: 'repeated' });
      else if (neverCompared(this.paths[i]!))
        out.push({ path, nearest: null, why: 'never-compared' });
      else out.push({ path, nearest: nearestTypo(path, shapes) ?? null });
    });
    return out;
  }
}

/**
 * A path that matched nothing, in the caller's words: `flag` as the user gave the paths (`--ignore`,
 * `ignore`), `where` what was read (`in either recording`).
 */
export function unusedIgnoreText(
  { path, nearest, why }: UnusedIgnore,
  flag: string,
  where: string,
): string {
  if (why === 'repeated') return `${flag} ${path} is given twice; once leaves it out`;
  if (why === 'never-compared')
    return `${flag} ${path} left nothing out: it is never compared (session, user, shopper and page-load ids and timestamps differ between any two runs by nature), so it needs no ${flag}`;
  const what = path.startsWith('query.') ? 'no URL parameter of a page' : 'no field of an event';
  return `${flag} ${path} matched ${what} ${where}, so it left nothing out${nearest ? `; did you mean ${nearest}?` : ''}`;
}
