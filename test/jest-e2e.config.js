/**
 * End-to-end tests through the real HTTP pipeline. `DB_TYPE=mysql` runs the same suites against
 * MariaDB/MySQL (a throw-away database per test file); the default is an SQLite file per file.
 */
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
  testRegex: '(test|libs|apps)/.*\\.(e2e-)?spec\\.ts$',
  transform: { '^.+\\.ts$': ['@swc/jest', swcOptions] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    '^@app/(common|config|database|series)(|/.*)$': '<rootDir>/libs/$1/src$2',
  },
  // Builds the admin command line when dist is missing or stale (its tests run the built entry point).
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testTimeout: 60000,
  maxWorkers: 2,
};
