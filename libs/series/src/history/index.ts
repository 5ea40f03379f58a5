export * from './as-of';
export * from './change-cursor';
export * from './change-feed';
export * from './record-reverter';
export * from './revert-plan';
export * from './revision-pruner';
export * from './revision-reads.service';
export * from './revision.repository';
