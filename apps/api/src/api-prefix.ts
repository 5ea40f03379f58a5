/** The global route prefix; its own module so that start-up code can use it without a cycle. */
export const API_PREFIX = 'api';

/** The health route, polled by orchestrators. */
export const HEALTH_PATH = `/${API_PREFIX}/health`;

/** The metrics route, scraped by Prometheus (never rate-limited). */
export const METRICS_PATH = `/${API_PREFIX}/metrics`;
