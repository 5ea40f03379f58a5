export * from './change-notifications';
