import Negotiator from 'negotiator';
import { ApiError, MESSAGES, problemMessage } from '@app/common';
import { LIST_FORMATS, ListFormat, isListFormat } from '@app/diseases';
import { JSON_TYPE } from '../common/json-content-type';
import { InputMemo } from '../route-metadata/input-memo';

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

/**
 * `Accept` values worked out: run for every request served from memory, whose kept answers are
 * per format, and clients send a handful of values.
 */
const formats = new InputMemo<ListFormat>(256);

/** The list format an `Accept` header asks for: none, a wildcard or none of `MEDIA_TYPES`, JSON. */
export function acceptedFormat(accept: string | string[] | undefined): ListFormat {
  if (accept === undefined) return 'json';
  const header = Array.isArray(accept) ? accept.join(', ') : accept;
  return formats.of(MEDIA_TYPES, header, () => {
    const best = new Negotiator({ headers: { accept: header } }).mediaType(MEDIA_TYPE_NAMES);
    return best === undefined ? 'json' : (MEDIA_TYPES[best] ?? 'json');
  });
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
