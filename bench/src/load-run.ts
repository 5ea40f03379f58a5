import autocannon from 'autocannon';

export interface LoadOptions {
  connections: number;
  /** Seconds. */
  duration: number;
}

export interface LoadStats {
  requestsPerSecond: number;
  /** Responses with a 2xx status per second (for POST: records created per second). */
  okPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  /**
   * The server's CPU time (user + system) per request, in microseconds: steadier than requests/s
   * on a shared machine, where the load generator and the server compete for the same cores.
   */
  cpuUsPerRequest: number;
  /** Seconds of load. */
  seconds: number;
}

export interface LoadTarget {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A new body for each request (POST). */
  body?: () => string;
}

/** Drives one URL with autocannon on loopback and sums it up. */
export async function runLoad(
  target: LoadTarget,
  options: LoadOptions,
  server: { cpuSeconds(): number },
): Promise<LoadStats> {
  const { body } = target;
  const cpuBefore = server.cpuSeconds();
  const result = await autocannon({
    url: target.url,
    method: target.method,
    headers: { ...target.headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    connections: options.connections,
    duration: options.duration,
    requests: body ? [{ setupRequest: (request) => ({ ...request, body: body() }) }] : undefined,
  });
  const cpuSeconds = server.cpuSeconds() - cpuBefore;
  const seconds = result.duration || options.duration;
  return {
    requestsPerSecond: result.requests.total / seconds,
    okPerSecond: result['2xx'] / seconds,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    cpuUsPerRequest: result.requests.total > 0 ? (cpuSeconds * 1e6) / result.requests.total : 0,
    seconds,
  };
}

/**
 * Several runs of one server on one route, summed up: requests/s and CPU per request over all the
 * runs, p50 the median run's, p99 the worst run's.
 */
export function combineLoads(runs: LoadStats[]): LoadStats {
  if (runs.length === 1) return runs[0];
  const sum = (value: (run: LoadStats) => number): number =>
    runs.reduce((total, run) => total + value(run), 0);
  const seconds = sum((run) => run.seconds);
  const requests = sum((run) => run.requests);
  const p50s = runs.map((run) => run.p50Ms).sort((a, b) => a - b);
  return {
    requestsPerSecond: requests / seconds,
    okPerSecond: sum((run) => run.okPerSecond * run.seconds) / seconds,
    p50Ms: p50s[Math.floor((p50s.length - 1) / 2)],
    p99Ms: Math.max(...runs.map((run) => run.p99Ms)),
    requests,
    non2xx: sum((run) => run.non2xx),
    errors: sum((run) => run.errors),
    cpuUsPerRequest: requests > 0 ? sum((run) => run.cpuUsPerRequest * run.requests) / requests : 0,
    seconds,
  };
}
