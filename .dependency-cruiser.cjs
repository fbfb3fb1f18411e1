// The layers of src/ (README, "Code layout"), checked by `npm run lint:layers`. Only value imports count: the check reads
// the code as it runs (tsPreCompilationDeps: false), so `import type` may cross layers and folders.
//   shared     http/, db/ (connections, columns, helpers), shared/, errors/ (declared errors), queue/ (the work queue), and the other plumbing below: no feature
//   tables     tables/: the schema, one file per feature; a table references tables and column helpers, nothing else
//   features   one folder each; its operations import shared code, the schema and lower features (no cycle)
//   web        a feature's routes/ (all its HTTP routes), pages/, pages.ts, page.ts and its module.ts (what it brings to
//              the app): in its feature's folder, so it imports what the operations may, never another feature's web
//   app        app.ts, server.ts, catalogs.ts, modules.ts (the list of modules), cli.ts and the start-up wiring
const SHARED = '^src/(http|db|shared|security|net|telemetry|i18n|storage|metrics|mail|queue|errors)/|^src/(clock|config|context|caches|ttl-cache)[.]ts$';
const TABLES = '^src/tables/';
const APP = '^src/(console/|(app|server|catalogs|modules|cli|cluster|bootstrap)[.]ts$)';
const WEB = '/(routes|pages)/|routes[.]ts$|/pages?[.]ts$|/module[.]ts$';

module.exports = {
  forbidden: [
    {
      name: 'routes-in-routes-folder',
      comment: 'A feature\'s HTTP routes live in its routes/ folder (src/<feature>/routes/<group>.ts), not in a routes.ts or x-routes.ts beside it',
      severity: 'error',
      from: { path: '^src/.*routes[.]ts$', pathNot: '/(routes|pages)/' },
      to: {},
    },
    {
      name: 'no-folder-cycle',
      comment: 'Feature folders form a hierarchy: a lower feature that must reach a higher one offers a hook (shared/hooks.ts)',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'shared-imports-no-feature',
      comment: 'Shared code is the bottom layer: it imports shared code only',
      severity: 'error',
      from: { path: SHARED },
      to: { path: '^src/', pathNot: SHARED },
    },
    {
      name: 'tables-import-tables-only',
      comment: 'A table references other tables and shared column helpers, no feature',
      severity: 'error',
      from: { path: TABLES },
      to: { path: '^src/', pathNot: [TABLES, SHARED] },
    },
    {
      name: 'operations-import-no-web',
      comment: 'Operations sit below the web layer: what routes and pages share with operations belongs in operations or shared/',
      severity: 'error',
      from: { path: '^src/', pathNot: [WEB, APP] },
      to: { path: WEB },
    },
    {
      name: 'no-other-feature-web',
      comment: 'A feature\'s routes and pages are its own: another feature imports its operations, never its web',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { path: WEB, pathNot: ['^src/$1/', APP] },
    },
    {
      name: 'nothing-imports-app',
      comment: 'The app layer assembles everything; nothing below imports it',
      severity: 'error',
      from: { path: '^src/', pathNot: APP },
      to: { path: APP },
    },
  ],
  options: {
    tsPreCompilationDeps: false,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
  },
};
