import { FastifyReply } from 'fastify';
import { ListFormat, ListQuery } from '@app/series';
import { LIST_CONTENT_TYPES } from './list-format-negotiation';

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

/**
 * `Link: <…>; rel="next"` (RFC 8288) of a list page: the same path and filters (`country`,
 * `from`, `to`, `limit`, `as_of`, and `format` when the client gave it), `after` the next
 * page's cursor;
 * `offset` is left out (the cursor replaces it), unknown parameters too.
 */
export function setNextLink(
  reply: FastifyReply,
  url: string,
  query: ListQuery & { format?: string },
  after: string,
): void {
  const path = url.split('?', 1)[0];
  const params: [string, string | number | undefined][] = [
    ['country', query.country],
    ['from', query.from],
    ['to', query.to],
    ['limit', query.limit],
    ['format', query.format],
    ['as_of', query.as_of],
    ['after', after],
  ];
  const search = params
    .filter((param): param is [string, string | number] => param[1] !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('&');
  void reply.header('link', `<${path}?${search}>; rel="next"`);
}
