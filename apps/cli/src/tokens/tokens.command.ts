import { Command } from 'commander';

/** What the commands do, loaded when one runs: `--help` loads neither Nest nor the database. */
const actions = () => import('./tokens.actions');

// Written out rather than taken from @app/config's SCOPES, which --help does not load (it brings
// Nest and the validators); test/slow/operations/cli-launcher.e2e-spec.ts holds the two equal.
const SCOPE_HELP =
  'comma-separated: covid:read, covid:write, mpox:read, mpox:write, sources:read, metrics:read';

/** `tokens create|list|rotate|revoke`. A new token goes alone to stdout; explanations to stderr. */
export function tokensCommand(): Command {
  const tokens = new Command('tokens').description(
    'issue, list, rotate and revoke client tokens, and set their scopes and rate limits',
  );

  tokens
    .command('create')
    .description('issue the first token of a client (printed once, never stored)')
    .argument('<client>', 'client name (letters, digits, . _ @ -)')
    .option('--rate-limit <budget>', "the client's own rate limit: 100/60, 500/1m, 10000/1h")
    .option('--scope <list>', `what the client may do (${SCOPE_HELP}; default: read only)`)
    .action(async (client: string, options: { rateLimit?: string; scope?: string }) =>
      (await actions()).createToken(client, options),
    );

  tokens
    .command('list')
    .description('every token: client, prefix, created, last used, state (never the token)')
    .action(async () => (await actions()).listTokens());

  tokens
    .command('rotate')
    .description(
      "issue a client's next token; the old ones stay valid until revoked or --grace ends",
    )
    .argument('<client>', 'client name')
    .option('--grace <duration>', 'old tokens expire after this long (90s, 30m, 24h, 7d)')
    .option('--rate-limit <budget>', 'a new rate limit for the client (100/60, 1000/1h, none)')
    .option('--scope <list>', `new scopes for the client (${SCOPE_HELP}); default: kept`)
    .action(
      async (client: string, options: { grace?: string; rateLimit?: string; scope?: string }) =>
        (await actions()).rotateToken(client, options),
    );

  tokens
    .command('limit')
    .description("set a client's own rate limit (requests/window), or `none` for the default")
    .argument('<client>', 'client name')
    .argument('<budget>', '100/60, 500/1m, 10000/1h, or none')
    .action(async (client: string, text: string) => (await actions()).limitTokens(client, text));

  tokens
    .command('scope')
    .description('set what a client may do, on all its tokens (every instance follows)')
    .argument('<client>', 'client name')
    .argument('<scopes>', SCOPE_HELP)
    .action(async (client: string, text: string) => (await actions()).scopeTokens(client, text));

  tokens
    .command('revoke')
    .description("revoke all of a client's tokens, or only the one with --token-prefix")
    .argument('<client>', 'client name')
    .option('--token-prefix <prefix>', 'revoke only the token with this prefix (see tokens list)')
    .action(async (client: string, options: { tokenPrefix?: string }) =>
      (await actions()).revokeTokens(client, options),
    );

  return tokens;
}
