import { Command } from 'commander';

/**
 * `sources`: every URL imported from or scheduled (`SYNC_SOURCES`), with how its last import
 * went and, when scheduled, the next run (runs fall on the same slots on every instance).
 */
export function sourcesCommand(): Command {
  return new Command('sources')
    .description(
      'list the sources (URLs imported from, SYNC_SOURCES): last attempt, outcome, error, next run',
    )
    .action(async () => (await import('./sources.actions')).listSources());
}
