export * from './as-of';
export * from './change-cursor';
export * from './change-feed';
export * from './revert-plan';
export * from './revision-reads.service';
export * from './correction-cursor';
export * from './correction-list';
export * from './series-corrections';
