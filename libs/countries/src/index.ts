export * from './country-aliases';
export * from './country-directory';
export * from './regions';
