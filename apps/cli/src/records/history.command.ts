import { Command } from 'commander';
import { parseInstant } from '@app/common';
import { RevertStep } from '@app/series';
import { StoredRevision } from '@app/database';
import { CliError } from '../cli-error';
import { withService } from '../cli-context';
import { textTable } from '../text-table';
import { RecordHistoryService } from './record-history.service';
import { seriesNamed } from './series-argument';

const out = (line: string) => process.stdout.write(`${line}\n`);

/** A record id: a positive integer (exit code 2 otherwise). */
function recordId(text: string): number {
  if (!/^[1-9]\d{0,15}$/.test(text)) {
    throw CliError.usage(`invalid record id "${text}": expected a positive integer`);
  }
  return Number(text);
}

/** `--since`, `--before`: an ISO 8601 date (the start of that day, UTC) or date-time. */
function instant(text: string, option = '--since'): number {
  const ms = parseInstant(text);
  if (ms === undefined) {
    throw CliError.usage(
      `invalid ${option} "${text}": expected an ISO 8601 date or date-time (2026-11-26, 2026-11-26T10:00:00Z)`,
    );
  }
  return ms;
}

function revisionRows(revisions: StoredRevision[]): string[] {
  const header = ['REVISION', 'AT', 'ACTOR', 'CHANGE', 'DATE', 'COUNTRY', 'TOTAL CASES'];
  const rows = revisions.map((r, i) => [
    String(i + 1),
    new Date(r.at).toISOString(),
    r.actor,
    r.kind,
    r.values?.date ?? '-',
    r.values?.country ?? '-',
    r.values === null
      ? '-'
      : `${r.values.total_cases} (${signed(r.values.new_cases)}), deaths ${r.values.total_deaths} (${signed(r.values.new_deaths)})`,
  ]);
  return textTable([[...header.slice(0, 6), 'FIGURES'], ...rows]);
}

const LEFT_ALONE = { conflict: true, pruned: true, clash: true };
const WRITES = { create: true, update: true, delete: true };

const DONE: Record<string, string> = {
  create: 'brought back',
  update: 'put back',
  delete: 'removed',
  unchanged: 'already as it was',
};

const when = (at: number) => new Date(at).toISOString();

/** What revert did, or would do, to one record; `keptSince`: the history's horizon. */
function stepLine(
  key: string,
  step: RevertStep,
  dryRun: boolean,
  keptSince: number | null,
): string {
  const record = `${key} record ${step.recordId}`;
  switch (step.outcome) {
    case 'conflict':
      return `${record}: left alone, changed by ${step.conflict!.actor} at ${when(step.conflict!.at)} afterwards`;
    case 'pruned': {
      const first = step.first!;
      const lost =
        keptSince === null
          ? 'is not in its history'
          : `was pruned (history kept from ${when(keptSince)})`;
      return `${record}: left alone, its state before the change by ${first.actor} at ${when(first.at)} ${lost}`;
    }
    case 'clash': {
      const holder = step.holder!;
      return `${record}: left alone, record ${holder.recordId} now holds ${holder.country} on ${holder.date}`;
    }
    default: {
      const verb =
        dryRun && step.outcome !== 'unchanged'
          ? `would be ${DONE[step.outcome]}`
          : DONE[step.outcome];
      return `${record}: ${verb} (${step.undone} change(s) undone)`;
    }
  }
}

/** `history`, `restore` and `revert`: a record's revisions, and putting records back. */
export function historyCommands(): Command[] {
  const history = new Command('history')
    .description("a record's revisions, oldest first: when, who, what it held")
    .argument('<dataset>', 'covid or mpox')
    .argument('<id>', 'record id')
    .action((dataset: string, id: string) => {
      const series = seriesNamed(dataset);
      const recordNumber = recordId(id);
      return withService(RecordHistoryService, async (service) => {
        revisionRows(await service.history(series, recordNumber)).forEach(out);
      });
    });

  const restore = new Command('restore')
    .description(
      'put a record back as it was before its last change, or at --revision (a new revision, actor cli:restore)',
    )
    .argument('<dataset>', 'covid or mpox')
    .argument('<id>', 'record id')
    .option('--revision <n>', 'the revision to go back to (see history)')
    .action((dataset: string, id: string, options: { revision?: string }) => {
      const series = seriesNamed(dataset);
      const recordNumber = recordId(id);
      const revision = options.revision === undefined ? undefined : recordId(options.revision);
      return withService(RecordHistoryService, async (service) => {
        const { kind, from } = await service.restore(series, recordNumber, revision);
        out(`${series.key} record ${recordNumber}: ${DONE[kind]} (as revision ${from} left it)`);
      });
    });

  const revert = new Command('revert')
    .description(
      'undo every change an actor made since a moment (a new revision each, actor cli:revert); records changed by someone else afterwards are left alone',
    )
    .argument('<dataset>', 'covid or mpox')
    .requiredOption(
      '--actor <name>',
      'the client name (or import:/sync: actor) whose changes to undo',
    )
    .requiredOption(
      '--since <time>',
      'ISO 8601 date or date-time (a date: the start of that day, UTC)',
    )
    .option('--dry-run', 'only say what would be done')
    .action((dataset: string, options: { actor: string; since: string; dryRun?: boolean }) => {
      const series = seriesNamed(dataset);
      const since = instant(options.since);
      const dryRun = options.dryRun === true;
      return withService(RecordHistoryService, async (service) => {
        const { steps, keptSince } = await service.revert(series, options.actor, since, dryRun);
        steps.forEach((step) => out(stepLine(series.key, step, dryRun, keptSince)));
        const changed = steps.filter((s) => s.outcome in WRITES).length;
        const left = steps.filter((s) => s.outcome in LEFT_ALONE).length;
        out(
          `${dryRun ? 'would revert' : 'reverted'}: ${changed} record(s); left alone: ${left}` +
            (dryRun ? ' (--dry-run: nothing written)' : ''),
        );
      });
    });

  const prune = new Command('prune-history')
    .description(
      'remove the revisions made before a moment that a later one made before it supersedes (records are untouched); reads as of an earlier moment are refused from then on',
    )
    .argument('<dataset>', 'covid or mpox')
    .requiredOption(
      '--before <time>',
      'ISO 8601 date or date-time, not in the future (a date: the start of that day, UTC)',
    )
    .option('--dry-run', 'only count what would be removed')
    .action((dataset: string, options: { before: string; dryRun?: boolean }) => {
      const series = seriesNamed(dataset);
      const before = instant(options.before, '--before');
      if (before > Date.now()) {
        throw CliError.usage(`invalid --before "${options.before}": it is in the future`);
      }
      const dryRun = options.dryRun === true;
      return withService(RecordHistoryService, async (service) => {
        const counts = await service.prune(series, before, dryRun);
        const moment = new Date(before).toISOString();
        out(
          dryRun
            ? `would remove: ${counts.revisions} revision(s) of ${series.key} superseded before ${moment} (--dry-run: nothing written)`
            : `removed: ${counts.revisions} revision(s) of ${series.key} superseded before ${moment}, ${counts.commits} emptied commit(s) of the change feed; as_of before ${moment} is refused from now on`,
        );
      });
    });

  return [history, restore, revert, prune];
}

/** A daily figure with its sign: `+5`, `-5` (sources revise past days downwards), `+0`. */
function signed(value: number): string {
  return value < 0 ? String(value) : `+${value}`;
}
