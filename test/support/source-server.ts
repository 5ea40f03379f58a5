import { IncomingHttpHeaders, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

const HEADER = 'date,country,total_cases,new_cases,total_deaths,new_deaths';

/** A trimmed-format CSV file of `rows`. */
export const csv = (...rows: string[]) => `${[HEADER, ...rows].join('\n')}\n`;

/** Two versions of a source: from V1 to V2, one row stays, one changes, one is new. */
export const V1 = csv('2024-01-01,France,10,10,1,1', '2024-01-02,France,15,5,2,1');
export const V2 = csv(
  '2024-01-01,France,10,10,1,1',
  '2024-01-02,France,16,6,2,1',
  '2024-01-03,France,20,4,3,1',
);

/** What the server answers on one path; `seen` holds the headers of each request to it. */
export interface SourceRoute {
  seen: IncomingHttpHeaders[];
  answer(res: ServerResponse, headers: IncomingHttpHeaders, count: number): void;
}

/** A file with validators: 304 to a request that already holds its ETag. */
export function fileRoute(version: () => { body: string; etag: string; modified: string }) {
  const route: SourceRoute = {
    seen: [],
    answer(res, headers) {
      const { body, etag, modified } = version();
      const validators = { etag, 'last-modified': modified };
      if (headers['if-none-match'] === etag) return void res.writeHead(304, validators).end();
      res.writeHead(200, { ...validators, 'content-length': Buffer.byteLength(body) }).end(body);
    },
  };
  return route;
}

/** A file that never changes (one ETag): `fileRoute` of one version. */
export const staticFile = (body: string) =>
  fileRoute(() => ({ body, etag: '"1"', modified: 'Mon, 01 Jan 2024 00:00:00 GMT' }));

/** A real HTTP server on 127.0.0.1 standing in for a data source (WHO, OWID...). */
export class SourceServer {
  readonly routes: Record<string, SourceRoute> = {};
  private server?: Server;
  base = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const route = this.routes[req.url ?? ''];
      if (!route) return void res.writeHead(404).end('not here');
      route.seen.push(req.headers);
      route.answer(res, req.headers, route.seen.length);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  url(path: string): string {
    return `${this.base}${path}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
