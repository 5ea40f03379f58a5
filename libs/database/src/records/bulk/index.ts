export * from './bulk-load.repository';
export { BULK_RACE_LIMIT } from './mysql-bulk.strategy';
export { COPY_SWAP_MIN, LEFTOVER_AFTER_MS } from './sqlite-copy-swap-load';
