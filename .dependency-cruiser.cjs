// The architecture's layers, kept by dependency-cruiser (`npm run deps`, part of `npm test` and so of CI).
// Each rule says in words why it exists; a violation names the two files.
/** @type {import('dependency-cruiser').IConfiguration} */
// eslint-disable-next-line no-undef -- a CommonJS config file read by dependency-cruiser
module.exports = {
  forbidden: [
    {
      name: 'rules-import-no-rule',
      severity: 'error',
      comment:
        'A rule module is one rule (its meta and its handlers): what two rules share lives in rules/utils/, so no rule depends on another rule’s code, and removing or renaming a rule touches only its module and the one list (timeline/rule-list.ts).',
      from: { path: '^src/main/tracking/(timeline|visits)/rules/' },
      to: {
        path: '^src/main/tracking/(timeline|visits)/rules/[^/]+\\.ts$',
        pathNot: '^src/main/tracking/(timeline|visits)/rules/(index|types)\\.ts$',
      },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A runtime import cycle makes module load order matter and hides which module owns what. Type-only cycles inside one folder (DTOs that name each other) cost nothing at run time and are allowed.',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'shared-is-shared',
      severity: 'error',
      comment:
        'src/shared is what the Node side, the renderer and the package all import: it may not reach into either side, or the renderer would bundle Node code.',
      from: { path: '^src/shared/' },
      to: { path: '^src/(main|renderer|preload)/' },
    },
    {
      name: 'renderer-uses-the-admin-api',
      severity: 'error',
      comment:
        'The UI talks to the sandbox only over the public admin API (HTTP and SSE); importing main-process code would make it depend on internals users cannot see.',
      from: { path: '^src/renderer/' },
      to: { path: '^src/(main|preload)/' },
    },
    {
      name: 'domain-is-plain-typescript',
      severity: 'error',
      comment:
        'The domain (tracking, indexing, search, accounts) takes a clock and a store as parameters and runs anywhere (CLI, Electron, a user’s test): no web framework, no Electron, no React in it.',
      from: { path: '^src/main/(tracking|indexing|search|accounts)/' },
      to: { path: '^node_modules/(express|multer|electron|react|react-dom)/' },
    },
    {
      name: 'domain-below-delivery',
      severity: 'error',
      comment:
        'HTTP routers, the desktop shell, the package API and the check CLI deliver the domain; the domain never depends on how it is delivered.',
      from: { path: '^src/main/(tracking|indexing|search|accounts|store)/' },
      to: { path: '^src/main/(http|desktop|api|check)/' },
    },
    {
      name: 'areas-own-their-settings',
      severity: 'error',
      comment:
        'Each area owns its settings type and reads its part of the config (search/config.ts, tracking/timeline-settings.ts, indexing/outbox.ts…); src/main/config.ts only composes them, and core.ts and sandbox.ts wire the areas together: the domain imports none of the three.',
      from: { path: '^src/main/(tracking|indexing|search|accounts|store)/' },
      to: { path: '^src/main/(config|core|sandbox)\\.ts$' },
    },
    {
      name: 'accounts-below-the-areas',
      severity: 'error',
      comment:
        'Account config is read by every area; each area parses its own settings of an account (src/main/config.ts composes them), so accounts import no area.',
      from: { path: '^src/main/accounts/' },
      to: { path: '^src/main/(tracking|indexing|search)/' },
    },
    {
      name: 'indexing-below-search',
      severity: 'error',
      comment:
        'Search answers from the catalogs indexing builds: search depends on indexing, never the reverse.',
      from: { path: '^src/main/indexing/' },
      to: { path: '^src/main/(search|tracking)/' },
    },
    {
      name: 'search-below-timelines',
      severity: 'error',
      comment:
        'The timelines judge beacons against the responses search issued (search/provenance.ts declares what it offers): timelines depend on search, never the reverse.',
      from: { path: '^src/main/search/' },
      to: { path: '^src/main/tracking/' },
    },
    {
      name: 'clients-over-the-admin-api',
      severity: 'error',
      comment:
        'The package API and the desktop shell call the sandbox through the one admin client (src/shared/admin-client.ts), as any client does: never through the HTTP layer’s internals.',
      from: { path: '^src/main/(api|desktop)/' },
      to: { path: '^src/main/http/' },
    },
    {
      name: 'routers-take-their-service',
      severity: 'error',
      comment:
        'A router is given the one service it uses (the clock, indexing, the timeline engine…), not the whole core: what it can reach is what its signature says. (The indexing router, which serves the provider’s interface, still takes the core.)',
      from: {
        path: '^src/main/http/routes/',
        pathNot: '^src/main/http/routes/indexing\\.ts$',
      },
      to: { path: '^src/main/(core|sandbox)\\.ts$' },
    },
    {
      name: 'one-recordings-reader',
      severity: 'error',
      comment:
        'check, diff, uploads and the desktop’s File → Import read recorded traffic (NDJSON, exports, HARs) through src/main/recordings, with its caps, formats and messages: a second reader beside it (line splitting with readline, the import body’s or the journal’s reader) would drift from it.',
      from: { path: '^src/main/(check|cli|baseline|desktop)/' },
      to: {
        path: '^(node:)?readline(/promises)?$|^src/main/store/(import-text|import-body|journal-reader)\\.ts$',
      },
    },
    {
      name: 'http-not-desktop',
      severity: 'error',
      comment:
        'The HTTP app runs headless (serve, startSandbox) as well as in Electron: it may not import the desktop shell.',
      from: { path: '^src/main/http/' },
      to: { path: '^src/main/(desktop|api)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.node.json' },
    exclude: { path: '\\.d\\.ts$' },
  },
};
