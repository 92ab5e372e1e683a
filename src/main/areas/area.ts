// What an area of the sandbox is to the composition root: it opens from the sandbox's settings and the
// services of the areas it declares it needs (opened before it), and gives back its service, its routes,
// its reset and its export section. The root (sandbox.ts) opens them in the order of its list, checks
// each need was opened first, and closes whatever opened, in reverse, when a start fails or the sandbox closes.
import type { Router } from 'express';
import type { Bus } from '../bus';
import type { SandboxClock } from '../clock';
import type { SandboxConfig } from '../config';
import type { ResetScope, SandboxCore } from '../core';
import type { ExportSection } from '../store/export-format';
import type { ResetFiles } from '../store/reset-commit';
import type { BaselinesService } from './baselines';
import type { IndexingService } from '../indexing/service';
import type { RecordingsService } from './recordings';
import type { SearchArea } from './search';
import type { TrackingArea } from './tracking';

/** Each area's service, by the area's name. */
export interface AreaServices {
  recordings: RecordingsService;
  indexing: IndexingService;
  search: SearchArea;
  tracking: TrackingArea;
  baselines: BaselinesService;
}

export type AreaName = keyof AreaServices;

/** What every area opens with: the sandbox's settings and the collaborators all areas share. */
export interface AreaBase {
  readonly config: SandboxConfig;
  readonly clock: SandboxClock;
  readonly bus: Bus;
  /**
   * Closes what the area just opened, when the sandbox closes or a later step of the start fails: called
   * as each resource opens, so a start that fails midway closes exactly what was opened (in reverse).
   */
  onClose(close: () => Promise<void> | void): void;
}

/** An area's HTTP routes, mounted by the app in the order of the areas. */
export interface AreaRoutes {
  /** the provider's interfaces, open to storefront origins, at the root */
  provider?: Router[];
  /** the admin API, under /_sandbox behind the same-origin guard */
  admin?: Router[];
}

/** An area's part of a reset, written aside (see `OpenedArea.prepareReset`). */
export interface PreparedReset {
  /**
   * the files it writes aside and removes (null: none, in memory): the reset's record names them, and a
   * start that finds the reset committed but not finished does the rest (reset-commit.ts)
   */
  files: ResetFiles | null;
  /** put in place and in memory, once the reset committed */
  apply(): Promise<void>;
  /** removed again: the area is as it was */
  abandon(): Promise<void>;
}

/** The reset's commit (see `OpenedArea.commitReset`): `end` once every part is in place. */
export interface CommittedReset {
  end(): Promise<void>;
}

export interface OpenedArea<S> {
  service: S;
  /** routers over the service (and, for the events API, the sandbox's reset and export sections) */
  routes?(sandbox: SandboxCore): AreaRoutes;
  /**
   * forget what `scope` says; `importId`: the reset is a replacing import's. Runs once the reset is
   * committed and its files are in place: what it does, a start after a crash does too (the feeds made
   * from the fixtures again, the timelines rebuilt from the journal).
   */
  reset?(scope: ResetScope, importId?: string): Promise<void> | void;
  /**
   * A reset is one commit across the stores it touches: an area that keeps files of its own writes their
   * new state aside here, at `asideFor(file, resetId)`, leaving the live files and memory as they are
   * (null: nothing to write). Once every area prepared, the reset commits; then each prepared part is
   * applied, or, when anything before the commit failed, abandoned.
   */
  prepareReset?(
    scope: ResetScope,
    importId: string | undefined,
    resetId: string,
  ): Promise<PreparedReset | null>;
  /**
   * The reset's commit point (the events journal's reset record), after a record of the files the
   * prepared parts name (`files`), so that a start after a crash finishes a committed reset.
   */
  commitReset?(
    scope: ResetScope,
    importId: string | undefined,
    reset: { id: string; files: ResetFiles | null },
  ): Promise<CommittedReset>;
  /** the area's state in `GET /_sandbox/export` under the area's name */
  exportSection?: ExportSection;
  /** problems found while opening that did not stop it */
  warnings?: string[];
}

export interface Area<N extends AreaName, Needs extends AreaName = never> {
  readonly name: N;
  /** the areas whose services `open` takes: opened before this one */
  readonly needs: readonly Needs[];
  open(base: AreaBase, needs: Pick<AreaServices, Needs>): Promise<OpenedArea<AreaServices[N]>>;
}
