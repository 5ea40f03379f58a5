export * from './notifications';
export * from './redis';
