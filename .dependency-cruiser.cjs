/**
 * Folder rules of the source (`npm run lint:architecture`, run by `npm run lint`): see
 * docs/decisions/0033-folder-rules-kept-by-a-linter.md. Tests are not cruised: they may reach
 * anywhere (TypeORM and the drivers too, for fixtures and throw-away databases); ESLint keeps them
 * on the path aliases. The bench is cruised: it reaches a database through the tests' helpers.
 */
/** The database's packages: only libs/database imports them (decision 0053). */
const DATABASE_PACKAGES = ['typeorm', '@nestjs/typeorm', 'mysql2', 'better-sqlite3'];

/**
 * The libraries' order (docs/architecture.md): each may import only those listed for it, so the
 * order holds even where breaking it would not make a cycle.
 */
const LIBRARY_IMPORTS = {
  common: [],
  config: [],
  countries: ['common'],
  messaging: ['config'],
  database: ['common', 'config', 'countries'],
  diseases: ['common', 'config', 'countries', 'database', 'messaging'],
  importer: ['common', 'config', 'countries', 'database', 'messaging', 'diseases'],
};

const libraryOrder = Object.entries(LIBRARY_IMPORTS).map(([library, allowed]) => ({
  name: `library-order-${library}`,
  severity: 'error',
  comment:
    `libs/${library} imports ${allowed.length > 0 ? allowed.join(', ') : 'no other library'} ` +
    '(docs/architecture.md, the libraries in one direction).',
  from: { path: `^libs/${library}/` },
  to: {
    path: '^libs/[^/]+/',
    pathNot: [`^libs/${library}/`, ...allowed.map((l) => `^libs/${l}/`)],
  },
}));

module.exports = {
  forbidden: [
    ...libraryOrder,
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment:
        'Two folders import each other, directly or through others. A folder counts with its ' +
        'subfolders; break the cycle by moving the shared piece to a folder of its own, or by ' +
        'letting the lower folder declare the interface the higher one provides.',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-file-cycles',
      severity: 'error',
      comment: 'Two files import each other, directly or through others.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'libs-never-import-apps',
      severity: 'error',
      comment: 'A library serves the applications; it never imports one.',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'no-app-imports-another-app',
      severity: 'error',
      comment: 'What two applications share belongs in a library.',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'no-library-internals',
      severity: 'error',
      comment:
        'Outside a library, import it through its entry point (`@app/<name>`), never one of ' +
        'its files.',
      from: { path: '^(apps|bench)/' },
      to: { path: '^libs/[^/]+/src/', pathNot: '^libs/[^/]+/src/index\\.ts$' },
    },
    {
      name: 'no-other-library-internals',
      severity: 'error',
      comment:
        'A library imports another through its entry point (`@app/<name>`), never one of its files.',
      from: { path: '^libs/([^/]+)/' },
      to: { path: '^libs/[^/]+/src/', pathNot: ['^libs/$1/', '^libs/[^/]+/src/index\\.ts$'] },
    },
    {
      name: 'repositories-live-in-database',
      severity: 'error',
      comment:
        'Persistence has one home (decision 0035): a repository, like every file that builds or ' +
        'runs SQL, lives under libs/database/src; the other libraries and the apps import it ' +
        'through `@app/database`.',
      from: { path: '\\.repository\\.ts$', pathNot: '^libs/database/src/' },
      to: {},
    },
    {
      name: 'sql-through-the-runner',
      severity: 'error',
      comment:
        'SQL runs through one runner (decision 0058): the rest of libs/database imports ' +
        '`sql-runner/` through its index (`SqlRunner`, the list limits), never one of its files.',
      from: { path: '^libs/database/src/', pathNot: '^libs/database/src/sql-runner/' },
      to: {
        path: '^libs/database/src/sql-runner/',
        pathNot: '^libs/database/src/sql-runner/index\\.ts$',
      },
    },
    {
      name: 'database-packages-only-in-database',
      severity: 'error',
      comment:
        'TypeORM, its DataSource and the drivers belong to libs/database (decision 0053): elsewhere, ' +
        'inject a repository or a provider `@app/database` exports.',
      from: {
        path: '^(apps|libs|bench)/',
        pathNot: '^libs/database/',
      },
      to: {
        // Resolved into node_modules, or named as is when it cannot be resolved.
        path: `(^|/node_modules/|^node_modules/)(${DATABASE_PACKAGES.join('|')})(/|$)`,
      },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment: 'A file that nothing imports and that imports nothing: left over, or not wired in.',
      from: { orphan: true },
      to: {},
    },
    {
      name: 'no-unresolvable-imports',
      severity: 'error',
      comment: 'An import that resolves to nothing on disk (a typo, or a package not installed).',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.spec\\.ts$', '^test/', '^dist/'] },
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: a folder that needs another's types depends on it.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json'],
    },
  },
};
