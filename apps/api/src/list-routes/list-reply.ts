import { StreamableFile } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { CachedValue, FeedBody, FigureBody, ListBody, ListFormat, ListQuery } from '@app/diseases';
import { CLIENT_TIMEOUTS } from '../client-timeouts';
import { LIST_CONTENT_TYPES } from './format-negotiation';

/** The content type of a list answer, and its `Content-Disposition` when it is a download. */
export function setListHeaders(
  reply: FastifyReply,
  format: ListFormat,
  download?: { filename: string },
): void {
  void reply.header('content-type', LIST_CONTENT_TYPES[format]);
  if (download && format === 'csv') {
    void reply.header('content-disposition', `attachment; filename="${download.filename}.csv"`);
  }
}

/** The parameters a list's next page repeats, in order (`names` of `setNextLink`). */
export const LIST_LINK_PARAMETERS = ['country', 'from', 'to', 'limit', 'format', 'as_of'] as const;

/**
 * A list's answer (`ListBody`, a series' `FigureBody`) as the handler returns it: cached text,
 * text, or a stream, with its `Link` header when a page follows. A client that stops reading a
 * stream would hold it (and a page) for ever: its connection is closed once nothing moved for a
 * while. Only for streams: a socket timeout on every connection slows the cached routes
 * measurably (bench:compare). One page read ahead, not Readable.from's default of 16.
 */
export function listReply(
  body: ListBody | FigureBody,
  format: ListFormat,
  request: FastifyRequest,
  reply: FastifyReply,
  link: { query: Record<string, unknown>; names?: readonly string[]; filename?: string },
): CachedValue<string> | string | StreamableFile {
  setListHeaders(reply, format, link.filename ? { filename: link.filename } : undefined);
  if (body.next !== undefined) setNextLink(reply, request.url, link.query, body.next, link.names);
  if (body.kind === 'cached') return body.answer;
  if (body.kind === 'text') return body.text;
  return streamed(body.chunks, format, request);
}

/** Chunks as a stream, its connection closed once nothing moved for a while (`listReply`). */
function streamed(
  chunks: AsyncIterable<string>,
  format: ListFormat,
  request: FastifyRequest,
): StreamableFile {
  request.raw.socket.setTimeout(CLIENT_TIMEOUTS.idleMs);
  return new StreamableFile(Readable.from(chunks, { highWaterMark: 1 }), {
    type: LIST_CONTENT_TYPES[format],
  });
}

/**
 * A page of a feed (the change feed, the corrections), `next` its last cursor or null: its
 * headers, its `Link` when a page follows, its text; or the whole feed (a download), streamed
 * as `listReply` streams, without `Link`.
 */
export function pageReply(
  page: FeedBody,
  format: ListFormat,
  request: FastifyRequest,
  reply: FastifyReply,
  link: { query: Record<string, unknown>; names: readonly string[]; filename: string },
): string | StreamableFile {
  setListHeaders(reply, format, { filename: link.filename });
  if ('chunks' in page) return streamed(page.chunks, format, request);
  if (page.next !== null) setNextLink(reply, request.url, link.query, page.next, link.names);
  return page.text;
}

/**
 * `Link: <…>; rel="next"` (RFC 8288) of a list page: the same path and filters (`country`,
 * `from`, `to`, `limit`, `as_of`, and `format` when the client gave it), `after` the next
 * page's cursor;
 * `offset` is left out (the cursor replaces it), unknown parameters too.
 */
export function setNextLink(
  reply: FastifyReply,
  url: string,
  query: ListQuery & { format?: string } & Record<string, unknown>,
  after: string,
  names: readonly string[] = LIST_LINK_PARAMETERS,
): void {
  const path = url.split('?', 1)[0];
  const params: [string, string | number | undefined][] = [
    ...names.map((name): [string, string | number | undefined] => [
      name,
      query[name] as string | number | undefined,
    ]),
    ['after', after],
  ];
  const search = params
    .filter((param): param is [string, string | number] => param[1] !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('&');
  void reply.header('link', `<${path}?${search}>; rel="next"`);
}
