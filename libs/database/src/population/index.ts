export * from './population.repository';
export * from './population.module';
