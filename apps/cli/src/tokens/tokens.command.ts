import { Command } from 'commander';
import {
  DEFAULT_SCOPES,
  RATE_BUDGET_SYNTAX,
  RateBudget,
  SCOPES,
  Scope,
  formatRateBudget,
  formatScopes,
  parseRateBudget,
  parseScopes,
} from '@app/config';
import { CliError } from '../cli-error';
import { withService } from '../cli-context';
import { textTable } from '../text-table';
import { parseDuration } from './duration';
import { TokenAdminService, TokenListing, checkClient, checkNewToken } from './token-admin.service';

const err = (line: string) => process.stderr.write(`${line}\n`);
const out = (line: string) => process.stdout.write(`${line}\n`);

/** `YYYY-MM-DD HH:MM:SSZ` (UTC). */
export function formatTime(ms: number | null): string {
  return ms === null ? 'never' : `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}Z`;
}

function stateText(t: TokenListing): string {
  const state = stateWords(t);
  // Flagged where it is listed: such a client's writes pass for the command line's.
  return t.reserved ? `${state}, reserved name` : state;
}

function stateWords(t: TokenListing): string {
  if (t.state === 'expiring') return `valid until ${formatTime(t.expiresAt)}`;
  if (t.state === 'expired') return `expired ${formatTime(t.expiresAt)}`;
  if (t.state === 'revoked') return `revoked ${formatTime(t.revokedAt)}`;
  return 'valid';
}

/** `--rate-limit` and `tokens limit`: a budget, or `none` (null: back to the default). */
function budgetOption(text: string, what: string): RateBudget | null {
  if (text.trim().toLowerCase() === 'none') return null;
  const budget = parseRateBudget(text);
  if (!budget)
    throw CliError.usage(`invalid ${what} "${text}": expected ${RATE_BUDGET_SYNTAX}, or none`);
  return budget;
}

/** `--scope` and `tokens scope`: a comma-separated list of known scopes (exit 2 otherwise). */
function scopesOption(text: string, what: string): Scope[] {
  const parsed = parseScopes(text);
  if ('unknown' in parsed) {
    throw CliError.usage(
      `unknown scope "${parsed.unknown.join('", "')}" in ${what}: expected a comma-separated ` +
        `list of ${SCOPES.join(', ')}`,
    );
  }
  return parsed.scopes;
}

const SCOPE_HELP = `comma-separated: ${SCOPES.join(', ')}`;

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
    .action((client: string, options: { rateLimit?: string; scope?: string }) => {
      checkNewToken(client);
      const budget =
        options.rateLimit === undefined ? null : budgetOption(options.rateLimit, '--rate-limit');
      const scopes =
        options.scope === undefined ? [...DEFAULT_SCOPES] : scopesOption(options.scope, '--scope');
      return withService(
        TokenAdminService,
        async (admin) => {
          const issued = await admin.create(client, scopes, budget ?? undefined);
          err(
            `Token issued for "${issued.client}" (prefix ${issued.prefix}). Store it now: it is never shown again.`,
          );
          err(
            options.scope === undefined
              ? `Scopes: ${formatScopes(scopes)} (the default: reading only; --scope or "tokens scope" grants more).`
              : `Scopes: ${formatScopes(scopes)}.`,
          );
          out(issued.token);
        },
        'create',
      );
    });

  tokens
    .command('list')
    .description('every token: client, prefix, created, last used, state (never the token)')
    .action(() =>
      withService(TokenAdminService, async (admin) => {
        const list = await admin.list();
        if (list.length === 0) {
          out('No tokens.');
          return;
        }
        const header = [
          'CLIENT',
          'PREFIX',
          'CREATED',
          'LAST USED',
          'STATE',
          'RATE LIMIT',
          'SCOPES',
        ];
        const rows = list.map((t) => [
          t.client,
          t.prefix,
          formatTime(t.createdAt),
          formatTime(t.lastUsedAt),
          stateText(t),
          t.budget ? formatRateBudget(t.budget) : 'default',
          t.scopes.length > 0 ? formatScopes(t.scopes) : 'none',
        ]);
        textTable([header, ...rows]).forEach(out);
        const reserved = [...new Set(list.filter((t) => t.reserved).map((t) => t.client))];
        for (const client of reserved) {
          err(
            `warning: "${client}" is a name the service writes its own history under: its writes ` +
              `pass for the command line's; issue its tokens under another name, then revoke these`,
          );
        }
      }),
    );

  tokens
    .command('rotate')
    .description(
      "issue a client's next token; the old ones stay valid until revoked or --grace ends",
    )
    .argument('<client>', 'client name')
    .option('--grace <duration>', 'old tokens expire after this long (90s, 30m, 24h, 7d)')
    .option('--rate-limit <budget>', 'a new rate limit for the client (100/60, 1000/1h, none)')
    .option('--scope <list>', `new scopes for the client (${SCOPE_HELP}); default: kept`)
    .action((client: string, options: { grace?: string; rateLimit?: string; scope?: string }) => {
      checkNewToken(client);
      const grace =
        options.grace === undefined ? undefined : parseDuration(options.grace, '--grace');
      const budget =
        options.rateLimit === undefined
          ? undefined
          : budgetOption(options.rateLimit, '--rate-limit');
      const scopes =
        options.scope === undefined ? undefined : scopesOption(options.scope, '--scope');
      return withService(TokenAdminService, async (admin) => {
        const r = await admin.rotate(client, grace, { budget, scopes });
        const until =
          r.graceUntil === undefined
            ? `stay valid until "tokens revoke ${r.client} --token-prefix <prefix>"`
            : `stay valid until ${formatTime(r.graceUntil)}`;
        err(
          `New token for "${r.client}" (prefix ${r.prefix}). Store it now: it is never shown again.`,
        );
        err(`Old token(s) ${r.oldPrefixes.join(', ')} ${until}.`);
        out(r.token);
      });
    });

  tokens
    .command('limit')
    .description("set a client's own rate limit (requests/window), or `none` for the default")
    .argument('<client>', 'client name')
    .argument('<budget>', '100/60, 500/1m, 10000/1h, or none')
    .action((client: string, text: string) => {
      checkClient(client);
      const budget = budgetOption(text, 'rate limit');
      return withService(TokenAdminService, async (admin) => {
        await admin.setBudget(client, budget);
        out(
          budget
            ? `Rate limit of "${client}": ${formatRateBudget(budget)}.`
            : `Rate limit of "${client}": the default.`,
        );
      });
    });

  tokens
    .command('scope')
    .description('set what a client may do, on all its tokens (every instance follows)')
    .argument('<client>', 'client name')
    .argument('<scopes>', SCOPE_HELP)
    .action((client: string, text: string) => {
      checkClient(client);
      const scopes = scopesOption(text, 'the scope list');
      return withService(TokenAdminService, async (admin) => {
        await admin.setScopes(client, scopes);
        out(`Scopes of "${client}": ${formatScopes(scopes)}.`);
      });
    });

  tokens
    .command('revoke')
    .description("revoke all of a client's tokens, or only the one with --token-prefix")
    .argument('<client>', 'client name')
    .option('--token-prefix <prefix>', 'revoke only the token with this prefix (see tokens list)')
    .action((client: string, options: { tokenPrefix?: string }) => {
      checkClient(client);
      return withService(TokenAdminService, async (admin) => {
        const count = await admin.revoke(client, options.tokenPrefix);
        out(`Revoked ${count} token(s) of "${client}".`);
      });
    });

  return tokens;
}
