import { createHash } from 'node:crypto';

/** The history's `actor` column: `varchar(255)` on both databases. */
export const ACTOR_MAX_LENGTH = 255;

/** How an import names its actor: the command line's `import`, or the scheduled `sync`. */
export type ImportVia = 'import' | 'sync';

/**
 * What a source is called wherever a reader can see it (the history's actors, `/api/sources`,
 * the sync's log lines): for an http(s) URL, its scheme, host (and port) and path, without the
 * user name, password, query string or fragment, which may hold secrets (a signed URL's
 * signature); for a file (a path, or a `file://` URL as the `sources` table keeps it), its name
 * without the folder (a server path tells nothing to a reader).
 * Whatever is not a well-formed http(s) URL is taken as a file path.
 */
export function sourceName(source: string): string {
  if (/^https?:\/\//i.test(source)) {
    try {
      const url = new URL(source);
      return `${url.protocol}//${url.host}${url.pathname}`;
    } catch {
      // Not a URL after all: the text after the scheme would be shown whole, so say less.
      return source.replace(/^(https?:\/\/)[^/?#]*@/i, '$1').replace(/[?#].*$/s, '');
    }
  }
  if (/^file:\/\//i.test(source)) {
    const name =
      source
        .replace(/[?#].*$/s, '')
        .split('/')
        .pop() ?? '';
    try {
      return decodeURIComponent(name) || source;
    } catch {
      return name || source;
    }
  }
  const name = source
    .replace(/[\\/]+$/, '')
    .split(/[\\/]/)
    .pop();
  return name || source;
}

/**
 * The actor of an import's revisions, `import:<name>` or `sync:<name>` (`sourceName`), within the
 * column's size: a longer one keeps its start and ends with `…` and a short hash of the whole
 * name, so that it stays recognisable and two long names stay apart.
 */
export function importActor(via: ImportVia, source: string): string {
  return boundedActor(`${via}:${sourceName(source)}`);
}

/** `actor` as it is, or cut to `ACTOR_MAX_LENGTH` characters as `importActor` says. */
export function boundedActor(actor: string): string {
  const characters = Array.from(actor);
  if (characters.length <= ACTOR_MAX_LENGTH) return actor;
  const hash = createHash('sha256').update(actor).digest('hex').slice(0, 8);
  const tail = `…${hash}`;
  return characters.slice(0, ACTOR_MAX_LENGTH - tail.length).join('') + tail;
}
