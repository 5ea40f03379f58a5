import { stringify } from 'csv-stringify/sync';
import { IncomingMessage } from 'node:http';
import { Response } from 'supertest';
import { MESSAGES, addDays, todayUtc } from '@app/common';
import { LIST_PAGE_SIZE, MPOX_DISEASE, RecordValues } from '@app/diseases';
import { RECORD_KEYS, recordBody, seedWriter, TEST_ORIGIN } from '../../support/fixtures';
import { TestApp, bootTestApp } from '../../support/test-app';

type Row = Record<string, unknown>;

const CSV = 'text/csv; charset=utf-8';
const NDJSON = 'application/x-ndjson; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const CONTENT_TYPES = { json: JSON_TYPE, csv: CSV, ndjson: NDJSON } as const;
type Format = keyof typeof CONTENT_TYPES;
const FORMATS: Format[] = ['json', 'csv', 'ndjson'];

/** A real country whose canonical name holds a comma, and a place with a comma and quotes. */
const BONAIRE = 'Bonaire, Sint Eustatius and Saba';
const SHIP = 'Ship "Diamond", Princess';

const COUNTRY_LIST_KEYS = ['country', 'iso2', 'iso3', 'records', 'first_date', 'last_date'];
const COUNTRY_LATEST_KEYS = ['country', 'date', 'total_cases', 'total_deaths'];

/** Every route that answers a list: its URL, whether it needs a token, its items' keys. */
const LISTS: Array<{ url: string; token: boolean; keys: string[] }> = [
  { url: '/api/covid/data', token: true, keys: RECORD_KEYS },
  { url: '/api/mpox/data', token: true, keys: RECORD_KEYS },
  { url: '/api/covid/public/latest', token: false, keys: RECORD_KEYS },
  {
    url: `/api/covid/public/country/${encodeURIComponent(BONAIRE)}`,
    token: false,
    keys: RECORD_KEYS,
  },
  { url: '/api/covid/countries', token: true, keys: COUNTRY_LIST_KEYS },
  { url: '/api/mpox/countries', token: true, keys: COUNTRY_LIST_KEYS },
  { url: '/api/covid/public/countries', token: false, keys: COUNTRY_LATEST_KEYS },
  { url: '/api/mpox/public/countries', token: false, keys: COUNTRY_LATEST_KEYS },
];

const withQuery = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;

/** The CSV an independent writer (csv-stringify, RFC 4180 with CRLF) makes of the JSON items. */
const expectedCsv = (items: Row[], keys: string[]) =>
  stringify(items, { header: true, columns: keys, record_delimiter: 'windows' }) ||
  `${keys.join(',')}\r\n`;

const parseNdjson = (text: string): Row[] => {
  expect(text === '' || text.endsWith('\n')).toBe(true);
  return text
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line) as Row);
};

describe.each([
  ['answers kept in memory', {}],
  ['every answer through Nest', { CACHE_TTL_MS: '0' }],
])('list formats (%s)', (_, env: Record<string, string>) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp(env);
    const bodies: Array<['covid' | 'mpox', Record<string, unknown>]> = [
      ['covid', recordBody({ date: '2021-03-01', country: BONAIRE, new_cases: 1.5 })],
      ['covid', recordBody({ date: '2021-03-02', country: BONAIRE, new_deaths: -2 })],
      ['covid', recordBody({ date: '2021-03-02', country: SHIP, total_cases: 712 })],
      ['covid', recordBody({ date: '2021-03-01', country: 'France' })],
      ['mpox', recordBody({ date: '2022-06-01', country: BONAIRE, total_cases: 3 })],
      ['mpox', recordBody({ date: '2022-06-02', country: 'Peru', total_cases: 5 })],
    ];
    for (const [key, body] of bodies) {
      expect((await t.http.post(`/api/${key}/data`).set(t.auth()).send(body)).status).toBe(201);
    }
  });
  afterAll(() => t.close());

  /** The answer, its body as text whatever the format. */
  const get = async (
    url: string,
    token: boolean,
    headers: Record<string, string> = {},
  ): Promise<Response> => {
    const request = t.http.get(url).buffer(true).parse(textParser);
    if (token) void request.set(t.auth());
    for (const [name, value] of Object.entries(headers)) void request.set(name, value);
    const res = await request;
    res.text = res.body as string;
    return res;
  };

  describe.each(LISTS)('$url', ({ url, token, keys }) => {
    let items: Row[];
    beforeAll(async () => {
      const res = await get(url, token);
      expect(res.status).toBe(200);
      items = JSON.parse(res.text) as Row[];
      expect(items.length).toBeGreaterThan(0);
      expect(items.map((item) => Object.keys(item))).toEqual(items.map(() => keys));
    });

    const vary = token ? 'Authorization, Accept' : 'Accept';
    const isData = url.endsWith('/data');

    it('answers each format with its type, Vary, and a download name on /data in CSV', async () => {
      for (const format of FORMATS) {
        // Twice: the second may come from memory.
        for (let i = 0; i < 2; i++) {
          const res = await get(withQuery(url, `format=${format}`), token);
          expect({ format, status: res.status }).toEqual({ format, status: 200 });
          expect(res.headers['content-type']).toBe(CONTENT_TYPES[format]);
          expect(res.headers.vary).toBe(vary);
          expect(res.headers['content-disposition']).toBe(
            isData && format === 'csv'
              ? `attachment; filename="${url.split('/')[2]}-${todayUtc()}.csv"`
              : undefined,
          );
          if (format === 'json') expect(JSON.parse(res.text)).toEqual(items);
          if (format === 'ndjson') expect(parseNdjson(res.text)).toEqual(items);
          if (format === 'csv') expect(res.text).toBe(expectedCsv(items, keys));
        }
      }
    });

    it('writes a CSV header row naming the JSON keys in order, and quotes as RFC 4180', async () => {
      const res = await get(withQuery(url, 'format=csv'), token);
      const lines = res.text.split('\r\n');
      expect(lines[0]).toBe(keys.join(','));
      expect(lines[lines.length - 1]).toBe('');
      expect(res.text).not.toMatch(/[^\r]\n/);
      const bonaire = lines.filter((line) => line.includes('Bonaire'));
      expect(bonaire.length).toBeGreaterThan(0);
      for (const line of bonaire) {
        expect(line).toMatch(/(^|,)"Bonaire, Sint Eustatius and Saba",/);
      }
      if (url === '/api/covid/data') {
        const [latestBonaire] = items.filter((item) => item.country === BONAIRE);
        expect(bonaire[0]).toBe(
          `${String(latestBonaire.id)},2021-03-02,"Bonaire, Sint Eustatius and Saba",3800000,20000,86000,-2`,
        );
        const ship = lines.find((line) => line.includes('Ship'));
        expect(ship).toMatch(/^\d+,2021-03-02,"Ship ""Diamond"", Princess",712,20000,86000,250$/);
        expect(lines).toContainEqual(
          expect.stringMatching(/,2021-03-01,"Bonaire, .*",3800000,1.5,/),
        );
      }
      if (url === '/api/covid/countries') {
        // Null ISO codes (a place that is not a country) are empty fields.
        expect(lines).toContain('"Ship ""Diamond"", Princess",,,1,2021-03-02,2021-03-02');
        expect(lines).toContain(
          '"Bonaire, Sint Eustatius and Saba",BQ,BES,2,2021-03-01,2021-03-02',
        );
      }
    });

    it('writes NDJSON as one JSON object per line', async () => {
      const res = await get(withQuery(url, 'format=ndjson'), token);
      const lines = res.text.split('\n');
      expect(lines).toHaveLength(items.length + 1);
      expect(lines.slice(0, -1).map((line) => JSON.parse(line) as Row)).toEqual(items);
    });

    it('gives each format its own ETag, and a 304 per format', async () => {
      const tags: Partial<Record<Format, string>> = {};
      for (const format of FORMATS) {
        const res = await get(withQuery(url, `format=${format}`), token);
        tags[format] = res.headers.etag;
        expect(tags[format]).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      }
      expect(new Set(Object.values(tags)).size).toBe(3);
      for (const format of FORMATS) {
        for (let i = 0; i < 2; i++) {
          const same = await get(withQuery(url, `format=${format}`), token, {
            'If-None-Match': tags[format]!,
          });
          expect({ format, status: same.status, text: same.text }).toEqual({
            format,
            status: 304,
            text: '',
          });
          expect(same.headers.etag).toBe(tags[format]);
          expect(same.headers.vary).toBe(vary);
          // Negotiated by Accept rather than `format`: the same tag, the same 304.
          const accepted = await get(url, token, {
            Accept: CONTENT_TYPES[format].split(';')[0],
            'If-None-Match': tags[format]!,
          });
          expect({ format, status: accepted.status }).toEqual({ format, status: 304 });
          // Another format's tag does not match.
          const other = FORMATS.find((f) => f !== format)!;
          const changed = await get(withQuery(url, `format=${format}`), token, {
            'If-None-Match': tags[other]!,
          });
          expect({ format, status: changed.status }).toEqual({ format, status: 200 });
          expect(changed.headers.etag).toBe(tags[format]);
        }
      }
    });

    it('negotiates with Accept: no header and */* mean JSON, format wins over Accept', async () => {
      const cases: Array<[Record<string, string>, string, Format]> = [
        [{}, '', 'json'],
        [{ Accept: '*/*' }, '', 'json'],
        [{ Accept: 'text/csv' }, '', 'csv'],
        [{ Accept: 'application/x-ndjson' }, '', 'ndjson'],
        [{ Accept: 'text/html, application/json;q=0.9, */*;q=0.8' }, '', 'json'],
        [{ Accept: 'text/csv;q=0.5, application/x-ndjson' }, '', 'ndjson'],
        [{ Accept: 'text/*' }, '', 'csv'],
        // Nothing the list can be: JSON, as before formats existed.
        [{ Accept: 'image/png' }, '', 'json'],
        [{ Accept: 'text/csv' }, 'format=json', 'json'],
        [{ Accept: 'application/x-ndjson' }, 'format=csv', 'csv'],
        [{ Accept: 'text/csv' }, 'format=ndjson', 'ndjson'],
      ];
      // Twice over, interleaved: an answer kept for one Accept is never served to another.
      for (let round = 0; round < 2; round++) {
        for (const [headers, query, format] of cases) {
          const res = await get(query ? withQuery(url, query) : url, token, headers);
          expect({ headers, query, status: res.status, type: res.headers['content-type'] }).toEqual(
            { headers, query, status: 200, type: CONTENT_TYPES[format] },
          );
          expect(res.headers.vary).toBe(vary);
        }
      }
    });

    it('refuses an unknown format with a 400 in JSON, whatever Accept says', async () => {
      for (const query of ['format=xml', 'format=CSV', 'format=', 'format=csv&format=json']) {
        const res = await get(withQuery(url, query), token, { Accept: 'text/csv' });
        expect({ query, status: res.status, type: res.headers['content-type'] }).toEqual({
          query,
          status: 400,
          type: JSON_TYPE,
        });
        expect(JSON.parse(res.text)).toEqual({
          error: MESSAGES.invalidQuery,
          details: ['format : doit valoir json, csv ou ndjson'],
        });
      }
    });
  });

  it('keeps errors in JSON when CSV or NDJSON is asked for', async () => {
    const missing = await get('/api/covid/public/country/Atlantis?format=csv', false);
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe(JSON_TYPE);
    expect(JSON.parse(missing.text)).toEqual({ error: MESSAGES.countryNotFound });
    const invalid = await get('/api/covid/data?limit=0', true, { Accept: 'text/csv' });
    expect(invalid.status).toBe(400);
    expect(invalid.headers['content-type']).toBe(JSON_TYPE);
    expect(JSON.parse(invalid.text)).toEqual({
      error: MESSAGES.invalidQuery,
      details: ['limit : doit être un entier strictement positif'],
    });
    const anonymous = await t.http.get('/api/covid/data?format=csv');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['content-type']).toBe(JSON_TYPE);
  });

  it('leaves routes that are not lists in JSON, without Vary: Accept', async () => {
    for (const url of ['/api/covid/public/totals', '/api/mpox/public/summary']) {
      const res = await get(url, false, { Accept: 'text/csv' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(JSON_TYPE);
      expect(res.headers.vary).toBeUndefined();
    }
  });

  describe('a list that streams', () => {
    const COUNT = 2 * LIST_PAGE_SIZE + 37;
    beforeAll(async () => {
      const records: RecordValues[] = Array.from({ length: COUNT }, (_, i) => ({
        date: addDays('2000-01-01', i),
        country: i % 2 ? BONAIRE : 'Streamland',
        total_cases: i,
        new_cases: 1,
        total_deaths: 0,
        new_deaths: 0,
      }));
      await seedWriter(t.dataSource, MPOX_DISEASE).upsertMany(records, TEST_ORIGIN);
    });

    it('streams every format in the same order, with Vary and without ETag', async () => {
      const json = await get('/api/mpox/data?limit=100000000', true);
      const items = JSON.parse(json.text) as Row[];
      expect(items).toHaveLength(COUNT + 2);
      for (const format of ['csv', 'ndjson'] as const) {
        const res = await get(`/api/mpox/data?limit=100000000&format=${format}`, true);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe(CONTENT_TYPES[format]);
        expect(res.headers['transfer-encoding']).toBe('chunked');
        expect(res.headers.vary).toBe('Authorization, Accept, accept-encoding');
        expect(res.headers.etag).toBeUndefined();
        expect(res.headers.link).toBeUndefined();
        if (format === 'csv') {
          expect(res.headers['content-disposition']).toBe(
            `attachment; filename="mpox-${todayUtc()}.csv"`,
          );
          expect(res.text).toBe(expectedCsv(items, RECORD_KEYS));
        } else {
          expect(parseNdjson(res.text)).toEqual(items);
        }
      }
      const accepted = await get('/api/mpox/data?limit=100000000', true, { Accept: 'text/csv' });
      expect(accepted.headers['content-type']).toBe(CSV);
      expect(accepted.text).toBe(expectedCsv(items, RECORD_KEYS));
    });
  });
});

/** Keeps every body as text (supertest would parse JSON, and drop CSV and NDJSON). */
function textParser(res: Response, done: (error: Error | null, body: string) => void): void {
  // superagent hands its parsers Node's response stream.
  const stream = res as unknown as IncomingMessage;
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => (text += chunk));
  stream.on('end', () => done(null, text));
}
