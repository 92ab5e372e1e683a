// The installers' config (electron-builder.yml) is valid for the electron-builder the docs run, targets
// the promised formats, and packs what the app loads at run time. Nothing here downloads or builds.
//
// electron-builder is not a dependency of this repository: with its binaries for every OS it was 260 of
// `npm ci`'s 752 packages and half of node_modules' 535 MB, in every install, for the few who build
// installers. They run it with npx at the version pinned here, whose configuration schema is kept beside
// this test: app-builder-lib's scheme.json as that version publishes it (MIT), byte for byte.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import Ajv from 'ajv';
import { parse } from 'yaml';

/** the electron-builder the docs and the config's header run (`npx electron-builder@VERSION`) */
const ELECTRON_BUILDER = '25.1.8';
const SCHEMA = `test/unit/electron-builder-${ELECTRON_BUILDER}.scheme.json`;
const config = parse(readFileSync('electron-builder.yml', 'utf8')) as Record<string, unknown> & {
  files: string[];
  extraMetadata: Record<string, unknown>;
  extraResources: Array<{ from: string; to: string }>;
  linux: { target: string[] };
  mac: { target: string[] };
  win: { target: string[] };
};

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  main: string;
  exports: { '.': { default: string } };
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

describe('electron-builder.yml', () => {
  it('validates against the configuration schema of the electron-builder the docs run', () => {
    const schema = JSON.parse(readFileSync(SCHEMA, 'utf8')) as object;
    const ajv = new Ajv({ strict: false, allErrors: true });
    const validate = ajv.compile(schema);
    const valid = validate(config);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(valid).toBe(true);
  });

  it('builds AppImage and deb on Linux, dmg on macOS, nsis on Windows', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
  });

  it("packs the built app and the demo fixtures the sandbox starts with, and names the Electron entry as the app's main", () => {
    expect(config.files).toEqual(
      expect.arrayContaining(['out/**/*', 'fixtures/**/*', 'package.json']),
    );
    // the repository's main is the npm package's API, for the tools that read main rather than exports;
    // the installers' package.json names the Electron entry instead, and `npm run app` starts Electron on
    // out/main, whose package.json (electron.vite.config.ts) names it (test/api/electron-bundle.test.ts)
    expect(pkg.main).toBe(pkg.exports['.'].default);
    expect(config.extraMetadata).toEqual({ main: 'out/main/index.js' });
    expect(pkg.scripts.app).toBe(
      'node node_modules/electron/install.js && electron-vite dev --entry out/main',
    );
    expect(existsSync('fixtures/demo.config.json')).toBe(true);
    for (const { from } of config.extraResources) expect(existsSync(from), from).toBe(true);
  });

  it('is built by the electron-builder whose schema it is checked against, fetched by npx, not installed', () => {
    expect(pkg.devDependencies).not.toHaveProperty('electron-builder');
    expect(pkg.dependencies).not.toHaveProperty('electron-builder');
    const runs = (text: string) => [...text.matchAll(/npx (?:--yes )?electron-builder(\S*)/g)];
    const docs = runs(readFileSync('docs/desktop.md', 'utf8'));
    const header = runs(readFileSync('electron-builder.yml', 'utf8'));
    expect(docs.length).toBeGreaterThanOrEqual(3);
    expect(header).toHaveLength(1);
    for (const [run, version] of [...docs, ...header])
      expect(version, run).toBe(`@${ELECTRON_BUILDER}`);
  });
});
