import { Command } from 'commander';

/** What the commands do, loaded when one runs: `--help` loads neither Nest nor the database. */
const actions = () => import('./history.actions');

/** `history`, `restore` and `revert`: a record's revisions, and putting records back. */
export function historyCommands(): Command[] {
  const history = new Command('history')
    .description("a record's revisions, oldest first: when, who, what it held")
    .argument('<disease>', 'covid or mpox')
    .argument('<id>', 'record id')
    .action(async (disease: string, id: string) => (await actions()).showHistory(disease, id));

  const restore = new Command('restore')
    .description(
      'put a record back as it was before its last change, or at --revision (a new revision, actor cli:restore)',
    )
    .argument('<disease>', 'covid or mpox')
    .argument('<id>', 'record id')
    .option('--revision <n>', 'the revision to go back to (see history)')
    .action(async (disease: string, id: string, options: { revision?: string }) =>
      (await actions()).restoreRecord(disease, id, options),
    );

  const revert = new Command('revert')
    .description(
      'undo every change an actor made since a moment (a new revision each, actor cli:revert); records changed by someone else afterwards are left alone',
    )
    .argument('<disease>', 'covid or mpox')
    .requiredOption(
      '--actor <name>',
      'the client name (or import:/sync: actor) whose changes to undo',
    )
    .requiredOption(
      '--since <time>',
      'ISO 8601 date or date-time (a date: the start of that day, UTC)',
    )
    .option('--dry-run', 'only say what would be done')
    .action(async (disease: string, options: { actor: string; since: string; dryRun?: boolean }) =>
      (await actions()).revertActor(disease, options),
    );

  const prune = new Command('prune-history')
    .description(
      'remove the revisions made before a moment that a later one made before it supersedes (records are untouched); reads as of an earlier moment are refused from then on',
    )
    .argument('<disease>', 'covid or mpox')
    .requiredOption(
      '--before <time>',
      'ISO 8601 date or date-time, not in the future (a date: the start of that day, UTC)',
    )
    .option('--dry-run', 'only count what would be removed')
    .action(async (disease: string, options: { before: string; dryRun?: boolean }) =>
      (await actions()).pruneHistory(disease, options),
    );

  return [history, restore, revert, prune];
}
