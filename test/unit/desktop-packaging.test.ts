// The installers' config (electron-builder.yml) is valid for the installed electron-builder, targets
// the promised formats, and packs what the app loads at run time. Nothing here downloads or builds.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Ajv from 'ajv';
import { parse } from 'yaml';

const require = createRequire(import.meta.url);
const config = parse(readFileSync('electron-builder.yml', 'utf8')) as Record<string, unknown> & {
  files: string[];
  extraMetadata: Record<string, unknown>;
  extraResources: Array<{ from: string; to: string }>;
  linux: { target: string[] };
  mac: { target: string[] };
  win: { target: string[] };
};

describe('electron-builder.yml', () => {
  it("validates against the installed electron-builder's own configuration schema", () => {
    const schema = JSON.parse(
      readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8'),
    ) as object;
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
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      main: string;
      exports: { '.': { default: string } };
      scripts: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    // the repository's main is the npm package's API, for the tools that read main rather than exports;
    // the installers' package.json names the Electron entry instead, and `npm run app` starts Electron on
    // out/main, whose package.json (electron.vite.config.ts) names it (test/api/electron-bundle.test.ts)
    expect(pkg.main).toBe(pkg.exports['.'].default);
    expect(config.extraMetadata).toEqual({ main: 'out/main/index.js' });
    expect(pkg.scripts.app).toBe(
      'node node_modules/electron/install.js && electron-vite dev --entry out/main',
    );
    expect(pkg.devDependencies).toHaveProperty('electron-builder');
    expect(existsSync('fixtures/demo.config.json')).toBe(true);
    for (const { from } of config.extraResources) expect(existsSync(from), from).toBe(true);
  });
});
