/**
 * MySQL connections per instance (`DB_POOL_SIZE`). A larger pool showed no clear gain on
 * POST /data in the bench (bench/HISTORY.md, tried and dropped), so 10 stays.
 */
export const DEFAULT_POOL_SIZE = 10;
