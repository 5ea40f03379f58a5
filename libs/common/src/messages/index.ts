export * from './messages';
export * from './field-problem';
export * from './problem-messages';
