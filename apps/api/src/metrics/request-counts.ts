import { Counter, Registry } from 'prom-client';
import { LatencyCounts, LatencyHistogram } from './latency-histogram';

/** Latency buckets, in seconds: from a memory answer (well under 1 ms) to a long full dump. */
export const LATENCY_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
] as const;

/** The one route label of requests that matched no route (404s of unknown URLs). */
export const UNMATCHED_ROUTE = 'unmatched';

/** Methods kept as they are; any other is counted as `OTHER`, so the label set stays bounded. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const STATUS_CLASSES = ['other', '1xx', '2xx', '3xx', '4xx', '5xx'] as const;

/**
 * What was answered on one route template and method: counts kept as plain numbers (read by the
 * counters when scraped: prom-client's `inc` hashes its labels on every call), and the latency
 * counted in the latency histogram's counts of this route, resolved once.
 */
export class RouteCounters {
  /** Responses by status class: index 1 to 5 for 1xx to 5xx, 0 for anything else. */
  readonly statuses = [0, 0, 0, 0, 0, 0];
  rateLimited = 0;
  cacheHits = 0;
  cacheMisses = 0;

  constructor(
    readonly route: string,
    readonly method: string,
    private readonly latency: LatencyCounts,
  ) {}

  record(status: number, seconds: number): void {
    const statusClass = (status / 100) | 0;
    this.statuses[statusClass >= 1 && statusClass <= 5 ? statusClass : 0]++;
    if (status === 429) this.rateLimited++;
    this.latency.observe(seconds);
  }
}

/**
 * The request counts of one application, by route template (never a raw URL) and method: as many
 * label sets as the application has routes, whatever URLs are sent.
 */
export class RequestCounts {
  private readonly routes = new Map<string, Map<string, RouteCounters>>();
  private readonly latency: LatencyHistogram<'route' | 'method'>;

  /** The request metrics, registered in `registry`. */
  constructor(registry: Registry) {
    this.latency = new LatencyHistogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request received to the response sent, by route template and method',
      labelNames: ['route', 'method'] as const,
      buckets: [...LATENCY_BUCKETS],
      registers: [registry],
    });
    this.register(registry);
  }

  /** `route`: Fastify's template of the matched route; undefined when none matched. */
  of(route: string | undefined, method: string): RouteCounters {
    const template = route ?? UNMATCHED_ROUTE;
    let byMethod = this.routes.get(template);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.routes.set(template, byMethod);
    }
    let counters = byMethod.get(method);
    if (counters === undefined) {
      const label = METHODS.has(method) ? method : 'OTHER';
      counters =
        byMethod.get(label) ??
        new RouteCounters(template, label, this.latency.child({ route: template, method: label }));
      byMethod.set(method, counters);
    }
    return counters;
  }

  /** Every route's counters once (an unknown method shares the `OTHER` one). */
  all(): RouteCounters[] {
    const all = new Set<RouteCounters>();
    for (const byMethod of this.routes.values()) for (const s of byMethod.values()) all.add(s);
    return [...all];
  }

  /** The counters, filled from these counts at each scrape. */
  private register(registry: Registry): void {
    const all = () => this.all();
    new Counter({
      name: 'http_requests_total',
      help: 'HTTP responses by route template, method and status class',
      labelNames: ['route', 'method', 'status_class'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const s of all()) {
          s.statuses.forEach((n, i) => {
            if (n > 0) {
              this.inc({ route: s.route, method: s.method, status_class: STATUS_CLASSES[i] }, n);
            }
          });
        }
      },
    });
    new Counter({
      name: 'http_rate_limit_refusals_total',
      help: 'Requests refused by the rate limit (429), by route template',
      labelNames: ['route'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const s of all()) if (s.rateLimited > 0) this.inc({ route: s.route }, s.rateLimited);
      },
    });
    new Counter({
      name: 'http_response_cache_requests_total',
      help:
        'GETs of routes whose answers are kept in memory: hit (answered before the router) or ' +
        'miss (answered by the controller)',
      labelNames: ['route', 'result'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const s of all()) {
          if (s.cacheHits > 0) this.inc({ route: s.route, result: 'hit' }, s.cacheHits);
          if (s.cacheMisses > 0) this.inc({ route: s.route, result: 'miss' }, s.cacheMisses);
        }
      },
    });
  }
}
