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
  transform: {
    '^.+\\.ts$': ['@swc/jest', swcOptions],
    // ES-module-only dependencies (content-disposition, under @fastify/static that serves the
    // Swagger UI): Node >= 20.19 requires them natively, Jest needs them compiled to CommonJS.
    '/node_modules/content-disposition/.+\\.js$': ['@swc/jest', swcOptions],
  },
  transformIgnorePatterns: ['/node_modules/(?!content-disposition/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    '^@app/(common|config|countries|database|series)(|/.*)$': '<rootDir>/libs/$1/src$2',
  },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testTimeout: 60000,
  maxWorkers: 2,
};
