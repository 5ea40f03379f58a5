import createClient, { type Client } from 'openapi-fetch';
import { ApiError, errorOf } from './errors';
import type { paths } from './openapi';
import { retryingFetch } from './retrying-fetch';

export type Disease = 'covid' | 'mpox';

/** The GET operation of a path of the document (never when the path is not in it). */
type Get<P> = P extends keyof paths ? (paths[P] extends { get: infer O } ? O : never) : never;
/** Its query parameters. */
export type QueryOf<P> =
  Get<P> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** Its 200 JSON body. */
type Ok<P> =
  Get<P> extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
/** The rows of a body: the array itself, or the array a feed page holds beside `next`. */
type RowsOf<B> = B extends readonly (infer R)[]
  ? R
  : { [K in keyof B]: B[K] extends readonly (infer R)[] ? R : never }[keyof B];

export type DataRecord = RowsOf<Ok<'/api/covid/data'>>;
export type SeriesRow = RowsOf<Ok<'/api/covid/series'>>;
export type Correction = RowsOf<Ok<'/api/covid/corrections'>>;
export type Change = RowsOf<Ok<'/api/covid/changes'>>;
export type PopulationRow = RowsOf<Ok<'/api/population'>>;
export type Region = RowsOf<Ok<'/api/regions'>>;

/** A version of a figure (`/vintages`). */
export type VintageRow = RowsOf<Ok<'/api/covid/vintages'>>;
export interface VintageQuery {
  country?: string;
  from?: string;
  to?: string;
  /** Comma-separated stored fields (`total_cases,new_cases`). */
  fields?: string;
  issued_since?: string;
  issued_until?: string;
  limit?: number;
}
/** `lag` (issue 54): days after each figure's date, until the generated query has it. */
export type SeriesQuery = QueryOf<'/api/covid/series'> & { lag?: number };

export interface ClientOptions {
  /** The API's root, `/api` included (default: `COVID_API_URL`, else http://localhost:3000/api). */
  url?: string;
  /** A client token (default: `COVID_API_TOKEN`); public routes need none. */
  token?: string;
  /** Further attempts after a 429 or 503, each after its `Retry-After` (default 5). */
  retries?: number;
  /** The longest single wait, whatever `Retry-After` says (default 60,000 ms). */
  maxWaitMs?: number;
  fetch?: (request: Request) => Promise<Response>;
}

/** Rows read page by page: `for await (const row of pages)`, `.pages()`, or `.all()`. */
export class Pages<Row> implements AsyncIterable<Row> {
  constructor(private readonly source: () => AsyncGenerator<Row[]>) {}

  /** Each page's rows, the next page asked for only when this one has been taken. */
  pages(): AsyncGenerator<Row[]> {
    return this.source();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Row> {
    for await (const page of this.source()) yield* page;
  }

  /** Every row of every page. */
  async all(): Promise<Row[]> {
    const rows: Row[] = [];
    for await (const page of this.source()) rows.push(...page);
    return rows;
  }
}

type Query = Record<string, string | number | undefined>;

const env = (name: string): string | undefined =>
  (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env[name];

/** The API's reads, typed from its OpenAPI document, pages followed and refusals thrown. */
export class CovidApiClient {
  /** The openapi-fetch client itself, for any route (`raw.GET('/api/covid/stats', ...)`). */
  readonly raw: Client<paths>;

  constructor(options: ClientOptions = {}) {
    const url = options.url ?? env('COVID_API_URL') ?? 'http://localhost:3000/api';
    const token = options.token ?? env('COVID_API_TOKEN');
    this.raw = createClient<paths>({
      // The document's paths start with /api: the base is the server's origin and prefix.
      baseUrl: url.replace(/\/+$/, '').replace(/\/api$/, ''),
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      fetch: retryingFetch({
        retries: options.retries ?? 5,
        maxWaitMs: options.maxWaitMs ?? 60_000,
        fetch: options.fetch ?? ((request) => fetch(request)),
      }),
    });
  }

  /** `/{disease}/data`: stored records, newest first, in pages of `limit` (default 1,000). */
  data(disease: Disease, query: QueryOf<'/api/covid/data'> = {}): Pages<DataRecord> {
    return this.pages<DataRecord>(`/api/${disease}/data`, { limit: 1000, ...query });
  }

  /** `/{disease}/series`: a place's whole series, or every place in pages (default 1,000). */
  series(disease: Disease, query: SeriesQuery = {}): Pages<SeriesRow> {
    const paged = query.country === undefined ? { limit: 1000 } : {};
    return this.pages<SeriesRow>(`/api/${disease}/series`, { ...paged, ...query });
  }

  /** `/{disease}/vintages`: one row per version of each stored figure. */
  vintages(disease: Disease, query: VintageQuery = {}): Pages<VintageRow> {
    return this.pages<VintageRow>(`/api/${disease}/vintages`, { ...query });
  }

  /** `/{disease}/corrections`: figures changed after their first publication. */
  corrections(disease: Disease, query: QueryOf<'/api/covid/corrections'> = {}): Pages<Correction> {
    return this.pages<Correction>(`/api/${disease}/corrections`, { ...query });
  }

  /** `/{disease}/changes`: the change feed, from its start unless `since` or `after`. */
  changes(disease: Disease, query: QueryOf<'/api/covid/changes'> = {}): Pages<Change> {
    return this.pages<Change>(`/api/${disease}/changes`, { ...query });
  }

  population(): Promise<PopulationRow[]> {
    return this.pages<PopulationRow>('/api/population', {}).all();
  }

  regions(): Promise<Region[]> {
    return this.pages<Region>('/api/regions', {}).all();
  }

  /**
   * Pages of `path`: a list page is an array whose next page is its `Link: <…>; rel="next"`; a
   * feed page (corrections, changes) an object whose `next` cursor is asked for as `after`.
   * Stops at a page without either, or an empty one.
   */
  private pages<Row>(path: string, first: Query): Pages<Row> {
    const get = async (query: Query) => {
      // The path is one of the document's; openapi-fetch's types cannot follow a variable one.
      const GET = this.raw.GET as (
        path: string,
        init: { params: { query: Query } },
      ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
      const { data, error, response } = await GET(path, { params: { query } });
      if (!response.ok) throw errorOf(response.status, error);
      return { body: data, link: response.headers.get('Link') };
    };
    return new Pages<Row>(async function* () {
      let query: Query | undefined = first;
      while (query) {
        const { body, link } = await get(query);
        const rows = (Array.isArray(body) ? body : rowsOfFeed(body)) as Row[];
        yield rows;
        const next = nextQuery(link);
        const cursor = (body as { next?: unknown } | undefined)?.next;
        if (rows.length === 0) query = undefined;
        else if (next) query = next;
        else if (typeof cursor === 'string') query = { ...query, after: cursor };
        else query = undefined;
      }
    });
  }
}

function rowsOfFeed(body: unknown): unknown[] {
  if (body && typeof body === 'object') {
    const list = Object.values(body).find((value) => Array.isArray(value));
    if (list) return list as unknown[];
  }
  throw new ApiError(200, 'the answer is neither a list nor a page of one');
}

/** The query of `Link: <…>; rel="next"` (RFC 8288), or undefined. */
export function nextQuery(link: string | null): Query | undefined {
  const match = /<([^>]*)>\s*;[^,]*\brel="?next"?/i.exec(link ?? '');
  if (!match) return undefined;
  return Object.fromEntries(new URL(match[1], 'http://link.invalid').searchParams);
}
