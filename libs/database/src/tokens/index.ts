export * from './api-token.repository';
