import { KnownSource, withSourceNames } from './source-name';

/**
 * The first line of an error's message: enough to act on, no stack trace. With `sources`, for a
 * message any reader may see: its sources named as `withSourceNames` says, before it is cut.
 */
export function describeError(error: unknown, sources?: readonly KnownSource[]): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split('\n')[0];
  return (sources ? withSourceNames(line, sources) : line).slice(0, 300);
}
