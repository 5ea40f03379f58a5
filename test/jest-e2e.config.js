/**
 * End-to-end tests through the real HTTP pipeline. `DB_TYPE=mysql` runs the same suites against
 * MariaDB/MySQL (a throw-away database per test file); the default is an SQLite file per file.
 */
/**
 * The layers are folders: `test/slow/` (`npm run test:slow`; which suites go there:
 * docs/testing.md, "Which layer"); the fast layer (`npm run test:fast`) is everything else,
 * `test/fast/` and the unit specs beside their code in `apps/` and `libs/`. `npm test` runs both.
 */
const SPEC = '\\.(e2e-)?spec\\.ts$';
const SLOW = `/test/slow/.*${SPEC}`;
const LAYER = process.env.TEST_LAYER ?? 'all';
if (!['all', 'fast', 'slow'].includes(LAYER))
  throw new Error(`TEST_LAYER: all, fast or slow, not ${LAYER}`);

const swcOptions = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
};

module.exports = {
  rootDir: '..',
  testEnvironment: 'node',
  testRegex: LAYER === 'slow' ? SLOW : `(test|libs|apps)/.*${SPEC}`,
  testPathIgnorePatterns: LAYER === 'fast' ? ['/node_modules/', '/test/slow/'] : ['/node_modules/'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', swcOptions],
    // ES-module-only dependencies (content-disposition, under @fastify/static that serves the
    // Swagger UI): Node >= 20.19 requires them natively, Jest needs them compiled to CommonJS.
    '/node_modules/content-disposition/.+\\.js$': ['@swc/jest', swcOptions],
  },
  transformIgnorePatterns: ['/node_modules/(?!content-disposition/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    '^@app/(common|config|countries|database|importer|messaging|diseases)(|/.*)$':
      '<rootDir>/libs/$1/src$2',
    // The tests reach into the applications by these (tsconfig.json), never by relative paths.
    '^@api/(.*)$': '<rootDir>/apps/api/src/$1',
    '^@cli/(.*)$': '<rootDir>/apps/cli/src/$1',
  },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testTimeout: 60000,
  maxWorkers: 2,
};
