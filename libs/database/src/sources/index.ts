export * from './source.repository';
