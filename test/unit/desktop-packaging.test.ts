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

  it("packs the built app and the demo fixtures the sandbox starts with, and the package's main is the Electron entry", () => {
    expect(config.files).toEqual(
      expect.arrayContaining(['out/**/*', 'fixtures/**/*', 'package.json']),
    );
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      main: string;
      devDependencies: Record<string, string>;
    };
    expect(pkg.main).toBe('./out/main/index.js');
    expect(pkg.devDependencies).toHaveProperty('electron-builder');
    expect(existsSync('fixtures/demo.config.json')).toBe(true);
    for (const { from } of config.extraResources) expect(existsSync(from), from).toBe(true);
  });
});
