/**
 * Exit codes: 0 done, 1 the work failed (or some rows were invalid), 2 bad command-line input;
 * an import stopped by a signal exits 128 + its number (`signalExitCode`).
 */
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** An error the command line reports as one clear line (no stack trace) before exiting. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_FAILURE,
  ) {
    super(message);
    this.name = 'CliError';
  }

  static usage(message: string): CliError {
    return new CliError(message, EXIT_USAGE);
  }
}
