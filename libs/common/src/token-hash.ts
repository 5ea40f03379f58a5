import { hash, randomBytes } from 'node:crypto';

/**
 * SHA-256 of a token, as stored and as looked up (never the token itself). One-shot `crypto.hash`
 * (Node >= 20.12): the same digest as `createHash('sha256')`, without a Hash object per request.
 */
export function hashToken(token: string): Buffer {
  return hash('sha256', token, 'buffer');
}

/** Characters of a token shown by `tokens list` to recognise it (not enough to guess it). */
export const TOKEN_PREFIX_LENGTH = 12;

/** A new client token: `cmx_` and 43 base64url characters (256 random bits). */
export function generateToken(): { token: string; prefix: string; hash: string } {
  const token = `cmx_${randomBytes(32).toString('base64url')}`;
  return {
    token,
    prefix: token.slice(0, TOKEN_PREFIX_LENGTH),
    hash: hashToken(token).toString('hex'),
  };
}
