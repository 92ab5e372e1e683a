// The areas as the root opens them: each in its turn, given the services of the areas it needs (a need
// not opened yet is a mistake in the list's order, said at once), its resets, export sections, warnings
// and routes kept in the list's order, and every close registered as it opened, run in reverse.
import { randomUUID } from 'node:crypto';
import type { ResetScope, SandboxCore } from '../core';
import { RESERVED_KEYS, type ExportSection } from '../store/export-format';
import { ResetNotFinished } from '../store/data-dir-error';
import type { ResetFiles } from '../store/reset-commit';
import type {
  Area,
  AreaBase,
  AreaName,
  AreaRoutes,
  AreaServices,
  CommittedReset,
  OpenedArea,
  PreparedReset,
} from './area';

export type AnyArea = Area<AreaName, AreaName>;

type Reset = (scope: ResetScope, importId?: string) => Promise<void> | void;
type Prepare = NonNullable<OpenedArea<unknown>['prepareReset']>;
type Commit = NonNullable<OpenedArea<unknown>['commitReset']>;

export class OpenAreas {
  private readonly services: Partial<AreaServices> = {};
  private readonly opened: Array<OpenedArea<unknown>> = [];
  private readonly closes: Array<() => Promise<void> | void> = [];
  private readonly resets = new Set<Reset>();
  private readonly prepares: Prepare[] = [];
  private commit: Commit | null = null;
  readonly sections = new Map<string, ExportSection>();
  readonly warnings: string[] = [];

  /** Close whatever opened, the last first (a failed start too: what opened before it failed). */
  async close(options: { quiet?: boolean } = {}): Promise<void> {
    for (const close of this.closes.splice(0).reverse()) {
      if (options.quiet) await Promise.resolve(close()).catch(() => undefined);
      else await close();
    }
  }

  /** Close this too when the areas close (opened before them: closed after them). */
  onClose(close: () => Promise<void> | void): void {
    this.closes.push(close);
  }

  async open(area: AnyArea, base: Omit<AreaBase, 'onClose'>): Promise<void> {
    const missing = area.needs.filter((need) => this.services[need] === undefined);
    if (missing.length > 0)
      throw new Error(
        `area ${area.name} needs ${missing.join(', ')}, which opens after it: list it first`,
      );
    const opened = await area.open(
      { ...base, onClose: (close) => this.onClose(close) },
      this.services as AreaServices,
    );
    (this.services as Record<AreaName, unknown>)[area.name] = opened.service;
    this.opened.push(opened);
    if (opened.reset) this.resets.add(opened.reset);
    if (opened.commitReset) this.commit = opened.commitReset;
    if (opened.prepareReset) this.prepares.push(opened.prepareReset);
    if (opened.exportSection) this.addSection(area.name, opened.exportSection);
    this.warnings.push(...(opened.warnings ?? []));
  }

  service<N extends AreaName>(name: N): AreaServices[N] {
    const service = this.services[name];
    if (service === undefined) throw new Error(`area ${name} is not open`);
    return service as AreaServices[N];
  }

  /**
   * One commit across the stores a reset touches: every area's files written aside, then the commit (a
   * record of those files, then the events journal's reset record: reset-commit.ts), then each area's
   * part put in place, in the areas' order, the commit ended, then the resets that follow from it (the
   * feeds made from the fixtures, the timelines) and the handlers added since (`onReset`). A failure
   * before the commit point leaves every store, on disk and in memory, as it was; one after it is said
   * as such (the reset stays, and a start finishes what it names).
   */
  async reset(scope: ResetScope, importId?: string): Promise<void> {
    const id = randomUUID();
    const prepared: PreparedReset[] = [];
    let committed: CommittedReset;
    try {
      for (const prepare of this.prepares) {
        const part = await prepare(scope, importId, id);
        if (part) prepared.push(part);
      }
      // no area commits (areas opened on their own, in a test): nothing to record
      committed = this.commit
        ? await this.commit(scope, importId, { id, files: resetFiles(prepared) })
        : { end: () => Promise.resolve() };
    } catch (err) {
      for (const part of prepared) await part.abandon().catch(() => undefined);
      throw err;
    }
    // committed: every part is applied (or, failing, left for the next start), whatever another's failure
    let failure: unknown = null;
    for (const part of prepared) await part.apply().catch((err: unknown) => (failure ??= err));
    if (failure === null) await committed.end().catch((err: unknown) => (failure ??= err));
    for (const reset of this.resets)
      await Promise.resolve()
        .then(() => reset(scope, importId))
        .catch((err: unknown) => (failure ??= err));
    if (failure !== null) throw new ResetNotFinished(failure);
  }

  onReset(handler: Reset): () => void {
    this.resets.add(handler);
    return () => this.resets.delete(handler);
  }

  addSection(name: string, section: ExportSection): void {
    if ((RESERVED_KEYS as readonly string[]).includes(name) || this.sections.has(name))
      throw new Error(`export section "${name}" is taken`);
    this.sections.set(name, section);
  }

  /** Each area's routers over the sandbox, in the areas' order. */
  routes(sandbox: SandboxCore): AreaRoutes[] {
    return this.opened.flatMap((area) => (area.routes ? [area.routes(sandbox)] : []));
  }
}

/** The files the prepared parts change, together (null: none, a reset in memory or of the journal only). */
function resetFiles(parts: readonly PreparedReset[]): ResetFiles | null {
  const files = parts.flatMap((p) => (p.files ? [p.files] : []));
  if (files.length === 0) return null;
  return {
    place: files.flatMap((f) => f.place),
    remove: files.flatMap((f) => f.remove),
  };
}
