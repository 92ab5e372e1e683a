// The areas as the composition root opens them: each after the areas it needs, its reset, export section
// and warnings kept in the list's order, and whatever opened closed again (last first) when a start fails.
import { describe, expect, it } from 'vitest';
import { Bus } from '../../src/main/bus';
import { SandboxClock } from '../../src/main/clock';
import type { AreaName, AreaServices } from '../../src/main/areas/area';
import { OpenAreas, type AnyArea } from '../../src/main/areas/open-areas';
import { createCore } from '../../src/main/sandbox';
import { testConfig } from '../helpers/sandbox';

/** An area that notes its opening, reset and close in `log`; `fails` makes its open throw midway. */
function fakeArea(
  name: AreaName,
  needs: AreaName[],
  log: string[],
  options: { fails?: boolean } = {},
): AnyArea {
  return {
    name,
    needs,
    open({ onClose }, services: Partial<AreaServices>) {
      log.push(`open ${name} with ${needs.filter((n) => services[n] !== undefined).join(',')}`);
      onClose(() => void log.push(`close ${name}`));
      if (options.fails) return Promise.reject(new Error(`${name} cannot open`));
      return Promise.resolve({
        service: { name } as never,
        reset: (scope) => void log.push(`reset ${name} ${scope.what}`),
        exportSection: { export: () => name },
        warnings: [`${name} warns`],
      });
    },
  };
}

function base() {
  return { config: testConfig(), clock: new SandboxClock(), bus: new Bus() };
}

describe('the sandbox areas', () => {
  it('open in the list’s order, each given the services it needs; resets, sections and warnings follow that order', async () => {
    const log: string[] = [];
    const areas = new OpenAreas();
    await areas.open(fakeArea('recordings', [], log), base());
    await areas.open(fakeArea('indexing', [], log), base());
    await areas.open(fakeArea('search', ['recordings', 'indexing'], log), base());
    await areas.reset({ what: 'all' });
    expect(log).toEqual([
      'open recordings with ',
      'open indexing with ',
      'open search with recordings,indexing',
      'reset recordings all',
      'reset indexing all',
      'reset search all',
    ]);
    expect([...areas.sections.keys()]).toEqual(['recordings', 'indexing', 'search']);
    expect(areas.warnings).toEqual(['recordings warns', 'indexing warns', 'search warns']);
    expect(() => areas.addSection('search', { export: () => 1 })).toThrow(/taken/);
    await areas.close();
    expect(log.slice(-3)).toEqual(['close search', 'close indexing', 'close recordings']);
  });

  it('refuses an area listed before one it needs, before opening anything of it', async () => {
    const log: string[] = [];
    const areas = new OpenAreas();
    await areas.open(fakeArea('recordings', [], log), base());
    await expect(
      areas.open(fakeArea('tracking', ['recordings', 'search'], log), base()),
    ).rejects.toThrow('area tracking needs search, which opens after it: list it first');
    expect(log).toEqual(['open recordings with ']);
  });

  it('a start that fails midway closes whatever opened, the last first, its own half-open part too', async () => {
    const log: string[] = [];
    const areas = new OpenAreas();
    areas.onClose(() => void log.push('close clock'));
    await areas.open(fakeArea('recordings', [], log), base());
    await areas.open(fakeArea('indexing', [], log), base());
    await expect(
      areas.open(fakeArea('search', ['indexing'], log, { fails: true }), base()),
    ).rejects.toThrow('search cannot open');
    await areas.close({ quiet: true });
    expect(log.filter((l) => l.startsWith('close'))).toEqual([
      'close search',
      'close indexing',
      'close recordings',
      'close clock',
    ]);
  });

  it('the sandbox’s own list opens in an order that meets every need, with its export sections', async () => {
    const core = await createCore(testConfig());
    try {
      expect([...core.exportSections().keys()]).toEqual(['indexing', 'search']);
      expect(core.routes().length).toBe(5);
    } finally {
      await core.close();
    }
  });
});
