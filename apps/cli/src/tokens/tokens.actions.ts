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

/*
 * What `tokens ...` does, loaded only when one of them runs (tokens.command.ts declares them):
 * the services and the database stay unloaded for `--help`.
 */

const err = (line: string) => process.stderr.write(`${line}\n`);
const out = (line: string) => process.stdout.write(`${line}\n`);

/** `YYYY-MM-DD HH:MM:SSZ` (UTC). */
function formatTime(ms: number | null): string {
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

export function createToken(
  client: string,
  options: { rateLimit?: string; scope?: string },
): Promise<void> {
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
}

export function listTokens(): Promise<void> {
  return withService(TokenAdminService, async (admin) => {
    const list = await admin.list();
    if (list.length === 0) {
      out('No tokens.');
      return;
    }
    const header = ['CLIENT', 'PREFIX', 'CREATED', 'LAST USED', 'STATE', 'RATE LIMIT', 'SCOPES'];
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
  });
}

export function rotateToken(
  client: string,
  options: { grace?: string; rateLimit?: string; scope?: string },
): Promise<void> {
  checkNewToken(client);
  const grace = options.grace === undefined ? undefined : parseDuration(options.grace, '--grace');
  const budget =
    options.rateLimit === undefined ? undefined : budgetOption(options.rateLimit, '--rate-limit');
  const scopes = options.scope === undefined ? undefined : scopesOption(options.scope, '--scope');
  return withService(TokenAdminService, async (admin) => {
    const r = await admin.rotate(client, grace, { budget, scopes });
    const until =
      r.graceUntil === undefined
        ? `stay valid until "tokens revoke ${r.client} --token-prefix <prefix>"`
        : `stay valid until ${formatTime(r.graceUntil)}`;
    err(`New token for "${r.client}" (prefix ${r.prefix}). Store it now: it is never shown again.`);
    err(`Old token(s) ${r.oldPrefixes.join(', ')} ${until}.`);
    out(r.token);
  });
}

export function limitTokens(client: string, text: string): Promise<void> {
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
}

export function scopeTokens(client: string, text: string): Promise<void> {
  checkClient(client);
  const scopes = scopesOption(text, 'the scope list');
  return withService(TokenAdminService, async (admin) => {
    await admin.setScopes(client, scopes);
    out(`Scopes of "${client}": ${formatScopes(scopes)}.`);
  });
}

export function revokeTokens(client: string, options: { tokenPrefix?: string }): Promise<void> {
  checkClient(client);
  return withService(TokenAdminService, async (admin) => {
    const count = await admin.revoke(client, options.tokenPrefix);
    out(`Revoked ${count} token(s) of "${client}".`);
  });
}
