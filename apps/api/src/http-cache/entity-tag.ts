import { hash } from 'node:crypto';

/**
 * A strong entity tag of a JSON answer: a digest of its bytes. Every instance gives the same
 * answer the same tag, so a CDN or a browser may revalidate against any of them, and a write
 * that changes the answer changes its tag wherever the answer is built again.
 */
export function entityTag(body: string | Buffer): string {
  return `"${hash('sha1', body, 'base64url')}"`;
}

/**
 * Whether `If-None-Match` names `tag` (RFC 9110 13.1.2: weak comparison, so `W/"x"` matches
 * `"x"`; `*` matches any current answer).
 */
export function ifNoneMatchHits(header: string | string[] | undefined, tag: string): boolean {
  if (header === undefined) return false;
  for (const list of Array.isArray(header) ? header : [header]) {
    for (const item of list.split(',')) {
      const candidate = item.trim();
      if (candidate === '*' || candidate === tag) return true;
      if (candidate.startsWith('W/') && candidate.slice(2) === tag) return true;
    }
  }
  return false;
}
