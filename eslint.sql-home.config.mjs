// @ts-check
// SQL text has one home, libs/database (decision 0053): run by `npm run lint:architecture`.
import tseslint from 'typescript-eslint';

/**
 * A string or template that starts like an SQL statement. Upper case, as the house writes SQL:
 * the lower-case words start prose ("set a client's limit"), an HTTP method has no space after it.
 */
const SQL_START = '^\\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|PRAGMA|SET|SHOW|KILL)\\s';

const message =
  'SQL text lives in libs/database (decision 0053): put the statement in a repository or a ' +
  'provider there and call it through @app/database.';

export default tseslint.config({
  // Tests and unit specs make fixtures and throw-away databases; they may write SQL.
  files: ['{apps,libs,bench}/**/*.ts'],
  ignores: ['libs/database/**', '**/*.spec.ts'],
  languageOptions: { parser: tseslint.parser },
  // No comment turns the rule off. The sources' comments for other rules draw warnings here,
  // which the script leaves out (`--quiet`): the rule is an error.
  linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' },
  rules: {
    'no-restricted-syntax': [
      'error',
      { selector: `Literal[value=/${SQL_START}/]`, message },
      { selector: `TemplateElement[value.raw=/${SQL_START}/]`, message },
    ],
  },
});
