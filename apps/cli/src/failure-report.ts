import { describeError } from '@app/common';
import { ImportError } from '@app/importer';
import { EXIT_FAILURE, EXIT_USAGE } from './cli-error';
import { signalExitCode } from './interruption';

/** Reports on stderr an error a command's work threw (not a CliError); returns the exit code. */
export function reportFailure(error: unknown): number {
  if (error instanceof ImportError) {
    process.stderr.write(`error: ${error.message}\n`);
    return importExitCode(error);
  }
  process.stderr.write(`error: ${describeError(error)}\n`);
  return EXIT_FAILURE;
}

/** An import that refused its argument is a usage error; one stopped by a signal exits as shells expect. */
function importExitCode(error: ImportError): number {
  if (error.kind === 'usage') return EXIT_USAGE;
  if (error.kind === 'interrupted' && error.signal) return signalExitCode(error.signal);
  return EXIT_FAILURE;
}
