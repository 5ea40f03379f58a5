import { Command, CommanderError } from 'commander';
import { CliError, EXIT_USAGE } from './cli-error';
import { dataCommands } from './records/records.command';
import { historyCommands } from './records/history.command';
import { sourcesCommand } from './records/sources.command';
import { tokensCommand } from './tokens/tokens.command';

/**
 * The whole command line (each command loads its work, Nest and the database only when it runs,
 * so that `--help` answers at once): `tokens ...`, `import`, `export`, `sources`, `history`, `restore`,
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
    // Thrown by a command's work, which has loaded the modules the report needs already.
    return (await import('./failure-report')).reportFailure(error);
  }
}
