/** The file `node` runs for an application (`dist/apps/<app>/apps/<app>/src/main.js`). */
export function builtEntry(root: string, app: string): string;
/** True when the application's built file is missing or older than one of its sources. */
export function needsBuild(root: string, app: string): boolean;
