import Negotiator from 'negotiator';
import { ApiError, MESSAGES, problemMessage } from '@app/common';
import { LIST_FORMATS, ListFormat, isListFormat } from '@app/diseases';
import { JSON_TYPE } from '../common/json-content-type';

/** The content type of each list format. */
export const LIST_CONTENT_TYPES: Record<ListFormat, string> = {
  json: JSON_TYPE,
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

/** The media types `Accept` may name, JSON first: a wildcard, no header or none of them mean JSON. */
const MEDIA_TYPES: Record<string, ListFormat> = {
  'application/json': 'json',
  'text/csv': 'csv',
  'application/x-ndjson': 'ndjson',
};
const MEDIA_TYPE_NAMES = Object.keys(MEDIA_TYPES);

/** `Accept` values worked out, at most (then forgotten at once): clients send a handful. */
const MAX_REMEMBERED = 256;
const remembered = new Map<string, ListFormat>();

/**
 * The list format an `Accept` header asks for. Run for every request served from memory (the
 * kept answers are per format), hence remembered: a clients' few `Accept` values are parsed once.
 */
export function acceptedFormat(accept: string | string[] | undefined): ListFormat {
  if (accept === undefined) return 'json';
  const header = Array.isArray(accept) ? accept.join(', ') : accept;
  let format = remembered.get(header);
  if (format === undefined) {
    const best = new Negotiator({ headers: { accept: header } }).mediaType(MEDIA_TYPE_NAMES);
    format = best === undefined ? 'json' : (MEDIA_TYPES[best] ?? 'json');
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(header, format);
  }
  return format;
}

/**
 * The format of a list request: `format` in the query string, which wins, else `Accept`. An
 * unknown `format` (or one given twice) is a 400 naming it.
 */
export function requestedFormat(
  query: Record<string, unknown> | undefined,
  accept: string | string[] | undefined,
): ListFormat {
  const given = query?.format;
  if (given === undefined) return acceptedFormat(accept);
  if (isListFormat(given)) return given;
  throw ApiError.badRequest(MESSAGES.invalidQuery, [
    problemMessage({ field: 'format', problem: 'not-one-of', values: LIST_FORMATS }),
  ]);
}
