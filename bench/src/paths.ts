import { resolve } from 'node:path';

/** The project root, from `dist/bench/bench/src` where the compiled bench runs. */
export const PROJECT_ROOT = resolve(__dirname, '../../../..');

export const BASELINE_MAIN = resolve(__dirname, 'baseline-server.js');
export const FASTIFY_REFERENCE_MAIN = resolve(__dirname, 'fastify-reference-server.js');
