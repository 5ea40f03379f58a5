export * from './client';
export { ApiError } from './errors';
export { retryDelayMs } from './retrying-fetch';
export type { paths, components } from './openapi';
