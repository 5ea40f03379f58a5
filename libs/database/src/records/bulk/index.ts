export * from './bulk-load.repository';
export { COPY_SWAP_MIN, LEFTOVER_AFTER_MS } from './sqlite-copy-swap-load';
