/**
 * What a client may do. `write` does not imply `read`: a script that only feeds records needs no
 * right to read them back. `sources:read` is the sync status, `metrics:read` the operators' view.
 */
export const SCOPES = [
  'covid:read',
  'covid:write',
  'mpox:read',
  'mpox:write',
  'sources:read',
  'metrics:read',
] as const;

export type Scope = (typeof SCOPES)[number];

/** What `tokens create` gives without `--scope`: reading the figures, nothing more. */
export const DEFAULT_SCOPES: readonly Scope[] = ['covid:read', 'mpox:read'];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** A scope list in the canonical order (that of `SCOPES`), without repeats. */
export function sortScopes(scopes: Iterable<Scope>): Scope[] {
  const set = new Set(scopes);
  return SCOPES.filter((scope) => set.has(scope));
}

/**
 * `covid:read,mpox:read` (the CLI's form; `separator` is `+` inside `API_TOKENS`, whose entries
 * are comma-separated). Blanks around names are ignored; the list may not be empty. Returns the
 * scopes, or the names that are not scopes.
 */
export function parseScopes(
  text: string,
  separator = ',',
): { scopes: Scope[] } | { unknown: string[] } {
  const names = text
    .split(separator)
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !isScope(name));
  if (names.length === 0) return { unknown: [text.trim()] };
  if (unknown.length > 0) return { unknown };
  return { scopes: sortScopes(names as Scope[]) };
}

/** How a scope list is written for people (CLI, logs): comma-separated, canonical order. */
export function formatScopes(scopes: Iterable<Scope>): string {
  return sortScopes(scopes).join(',');
}
