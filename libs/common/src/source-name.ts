import { createHash } from 'node:crypto';

/** The history's `actor` column: `varchar(255)` on both databases. */
export const ACTOR_MAX_LENGTH = 255;

/** How an import names its actor: the command line's `import`, or the scheduled `sync`. */
export type ImportVia = 'import' | 'sync';

/** A URL of any scheme (`https://`, `ftp://`, `s3://`...), as the start of a source. */
const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

/**
 * What a source is called wherever a reader can see it (the history's actors, `/api/sources`,
 * `last_error`, the sync's log lines, `/api/population`'s `source`): for a URL of any scheme, its
 * scheme, host (and port) and path, without the user name, password, query string or fragment,
 * which may hold secrets (a signed URL's signature); for a file (a path, or a `file://` URL as
 * the `sources` table keeps it), its name without the folder (a server path tells nothing to a
 * reader). Whatever does not start with `scheme://` is taken as a file path.
 */
export function sourceName(source: string): string {
  const scheme = SCHEME.exec(source)?.[1].toLowerCase();
  if (scheme === 'file') return fileUrlName(source);
  if (scheme) return urlName(source, scheme);
  const name = source
    .replace(/[\\/]+$/, '')
    .split(/[\\/]/)
    .pop();
  return name || source;
}

function urlName(source: string, scheme: string): string {
  try {
    // The URL as a download reads it: what it would send as credentials is dropped.
    const url = new URL(source);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    // Not a URL after all: say less. Everything up to the last `@` may be credentials (a
    // password with a `/`, `?` or `#` in it), everything after `?` or `#` a query.
    const rest = source.slice(scheme.length + 3);
    const shown = rest.slice(rest.lastIndexOf('@') + 1).replace(/[?#].*$/s, '');
    return `${scheme}://${shown}`;
  }
}

function fileUrlName(source: string): string {
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

/** A source a text may spell out whole, and the name it is shown by instead (`sourceName`). */
export type KnownSource = string | { text: string; name: string };

/** URL-like words of any scheme; punctuation at their end belongs to the sentence around them. */
const URL_LIKE = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;
const TRAILING_PUNCTUATION = /[.,;:!?)\]]+$/;
/** The folders of an absolute path (Unix or Windows) followed by a name: the folders go. */
const UNIX_FOLDERS = /(?<![\w.~:/\\\]-])\/(?:[^\s/\\"'<>`]+\/)+(?=[^\s/\\"'<>`])/g;
const WINDOWS_FOLDERS = /(?<!\w)[a-z]:\\(?:[^\s\\/"'<>`]+\\)+(?=[^\s\\/"'<>`])/gi;

/**
 * `text` (an error, a log line, a table's source cell) as any reader may see it: each known
 * source, however spelled (as given, normalised, a `file://` URL's path), replaced by its name;
 * then every other URL of any scheme by its `sourceName` and every absolute path by its file
 * name. Clean before cutting: a URL cut in two no longer matches its known spelling.
 */
export function withSourceNames(text: string, sources: readonly KnownSource[] = []): string {
  let shown = text;
  const known = sources
    .flatMap((source) =>
      typeof source === 'string'
        ? spellings(source).map((spelling) => ({ text: spelling, name: sourceName(source) }))
        : [source],
    )
    .filter(({ text: spelling }) => spelling !== '')
    // A longer spelling first: one may hold another (a URL and the same without its query).
    .sort((a, b) => b.text.length - a.text.length);
  for (const { text: spelling, name } of known) shown = shown.replaceAll(spelling, name);
  shown = shown.replace(URL_LIKE, (url) => {
    const after = TRAILING_PUNCTUATION.exec(url)?.[0] ?? '';
    return sourceName(url.slice(0, url.length - after.length)) + after;
  });
  return shown.replace(UNIX_FOLDERS, '').replace(WINDOWS_FOLDERS, '');
}

/** How a message may spell `source`: as given, as the URL parser writes it, as a file's path. */
function spellings(source: string): string[] {
  const found = [source];
  try {
    const url = new URL(source);
    found.push(url.href);
    if (url.protocol === 'file:') found.push(decodeURIComponent(url.pathname));
  } catch {
    // A path: only as given.
  }
  return found;
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
