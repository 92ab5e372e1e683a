// The areas as the root opens them: each in its turn, given the services of the areas it needs (a need
// not opened yet is a mistake in the list's order, said at once), its resets, export sections, warnings
// and routes kept in the list's order, and every close registered as it opened, run in reverse.
import type { ResetScope, SandboxCore } from '../core';
import { RESERVED_KEYS, type ExportSection } from '../store/export-format';
import { ResetNotFinished } from '../store/data-dir-error';
import type {
  Area,
  AreaBase,
  AreaName,
  AreaRoutes,
  AreaServices,
  OpenedArea,
  PreparedReset,
} from './area';

export type AnyArea = Area<AreaName, AreaName>;

type Reset = (scope: ResetScope, importId?: string) => Promise<void> | void;
type Prepare = (scope: ResetScope, importId?: string) => Promise<PreparedReset | null>;

export class OpenAreas {
  private readonly services: Partial<AreaServices> = {};
  private readonly opened: Array<OpenedArea<unknown>> = [];
  private readonly closes: Array<() => Promise<void> | void> = [];
  private readonly resets = new Set<Reset>();
  private readonly prepares: Prepare[] = [];
  private readonly commits: Reset[] = [];
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
    if (opened.reset) {
      if (opened.commitsReset) this.commits.push(opened.reset);
      else this.resets.add(opened.reset);
    }
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
   * One commit across the stores a reset touches: every area's files written aside, then the commit point
   * (the events journal's reset record), then each area's part applied, in the areas' order, then the
   * handlers added since (`onReset`). A failure before the commit point leaves every store, on disk and
   * in memory, as it was; one after it is said as such (the reset stays).
   */
  async reset(scope: ResetScope, importId?: string): Promise<void> {
    const prepared: PreparedReset[] = [];
    try {
      for (const prepare of this.prepares) {
        const part = await prepare(scope, importId);
        if (part) prepared.push(part);
      }
      for (const commit of this.commits) await commit(scope, importId);
    } catch (err) {
      for (const part of prepared) await part.abandon().catch(() => undefined);
      throw err;
    }
    // committed: every part is applied (or, failing, removed), whatever another's failure
    let failure: unknown = null;
    for (const part of prepared) await part.apply().catch((err: unknown) => (failure ??= err));
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
