export * from './api-token.repository';
export * from './token-notifications';
