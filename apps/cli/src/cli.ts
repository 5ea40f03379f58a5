import { Command, CommanderError } from 'commander';
import { CliError, EXIT_FAILURE, EXIT_USAGE } from './cli-error';
import { describeError } from '@app/common';
import { ImportError } from '@app/importer';
import { signalExitCode } from './interruption';
import { dataCommands } from './records/records.command';
import { historyCommands } from './records/history.command';
import { sourcesCommand } from './records/sources.command';
import { tokensCommand } from './tokens/tokens.command';

/**
 * The whole command line: `tokens ...`, `import`, `export`, `sources`, `history`, `restore`,
 * `revert`, `prune-history`.
 */
export function buildProgram(): Command {
  const program = new Command('covid-cli')
    .description(
      'Admin command line of the COVID-19 and MPOX data service (same environment variables as the API)',
    )
    .exitOverride()
    .showHelpAfterError()
    .allowExcessArguments(false);
  program.addCommand(tokensCommand());
  for (const command of dataCommands()) program.addCommand(command);
  program.addCommand(sourcesCommand());
  for (const command of historyCommands()) program.addCommand(command);
  for (const command of program.commands) {
    command.exitOverride().showHelpAfterError().allowExcessArguments(false);
    for (const sub of command.commands)
      sub.exitOverride().showHelpAfterError().allowExcessArguments(false);
  }
  return program;
}

/** Runs the command line; resolves to the process exit code (errors already reported on stderr). */
export async function runCli(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      const done = ['commander.helpDisplayed', 'commander.version'].includes(error.code);
      return done ? 0 : EXIT_USAGE;
    }
    if (error instanceof CliError) {
      process.stderr.write(`error: ${error.message}\n`);
      return error.exitCode;
    }
    if (error instanceof ImportError) {
      process.stderr.write(`error: ${error.message}\n`);
      return importExitCode(error);
    }
    process.stderr.write(`error: ${describeError(error)}\n`);
    return 1;
  }
}

/** An import that refused its argument is a usage error; one stopped by a signal exits as shells expect. */
function importExitCode(error: ImportError): number {
  if (error.kind === 'usage') return EXIT_USAGE;
  if (error.kind === 'interrupted' && error.signal) return signalExitCode(error.signal);
  return EXIT_FAILURE;
}
