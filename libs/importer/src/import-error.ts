/**
 * Why an import refused or stopped, as one clear line (no stack trace). `usage`: the argument
 * itself cannot be read (a missing file); `interrupted`: a signal stopped it (`signal` says which).
 * The command line turns the kind into its exit code; the scheduled sync stores the message.
 */
export type ImportErrorKind = 'failed' | 'usage' | 'interrupted';

export class ImportError extends Error {
  constructor(
    message: string,
    readonly kind: ImportErrorKind = 'failed',
    readonly signal?: NodeJS.Signals,
  ) {
    super(message);
    this.name = 'ImportError';
  }
}

/** The signal that aborted `signal`, if any (its reason is the signal's name). */
export function interruptedBy(signal: AbortSignal | undefined): NodeJS.Signals | undefined {
  return signal?.aborted ? (signal.reason as NodeJS.Signals) : undefined;
}
