export * from './population.repository';
