/**
 * The token of an `Authorization: Bearer <token>` header. The scheme word is case-insensitive;
 * a missing header, another scheme or an empty token give `undefined` ("no token").
 */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^\s*(\S+)(?:\s+(.*))?$/.exec(header);
  if (!match || match[1].toLowerCase() !== 'bearer') return undefined;
  const token = (match[2] ?? '').trim();
  return token === '' ? undefined : token;
}
