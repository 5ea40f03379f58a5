import { parseInstant } from '@app/common';
import { RevertStep } from '@app/diseases';
import { StoredRevision } from '@app/database';
import { CliError } from '../cli-error';
import { withService } from '../cli-context';
import { textTable } from '../text-table';
import { RecordHistoryService } from './record-history.service';
import { diseaseNamed } from './disease-argument';

/*
 * What `history`, `restore`, `revert` and `prune-history` do, loaded only when one of them runs
 * (history.command.ts declares them): the services and the database stay unloaded for `--help`.
 */

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

export function showHistory(name: string, id: string): Promise<void> {
  const disease = diseaseNamed(name);
  const recordNumber = recordId(id);
  return withService(RecordHistoryService, async (service) => {
    revisionRows(await service.history(disease, recordNumber)).forEach(out);
  });
}

export function restoreRecord(
  name: string,
  id: string,
  options: { revision?: string },
): Promise<void> {
  const disease = diseaseNamed(name);
  const recordNumber = recordId(id);
  const revision = options.revision === undefined ? undefined : recordId(options.revision);
  return withService(RecordHistoryService, async (service) => {
    const { kind, from } = await service.restore(disease, recordNumber, revision);
    out(`${disease.key} record ${recordNumber}: ${DONE[kind]} (as revision ${from} left it)`);
  });
}

export function revertActor(
  name: string,
  options: { actor: string; since: string; dryRun?: boolean },
): Promise<void> {
  const disease = diseaseNamed(name);
  const since = instant(options.since);
  const dryRun = options.dryRun === true;
  return withService(RecordHistoryService, async (service) => {
    const { steps, keptSince } = await service.revert(disease, options.actor, since, dryRun);
    steps.forEach((step) => out(stepLine(disease.key, step, dryRun, keptSince)));
    const changed = steps.filter((s) => s.outcome in WRITES).length;
    const left = steps.filter((s) => s.outcome in LEFT_ALONE).length;
    out(
      `${dryRun ? 'would revert' : 'reverted'}: ${changed} record(s); left alone: ${left}` +
        (dryRun ? ' (--dry-run: nothing written)' : ''),
    );
  });
}

export function pruneHistory(
  name: string,
  options: { before: string; dryRun?: boolean },
): Promise<void> {
  const disease = diseaseNamed(name);
  const before = instant(options.before, '--before');
  if (before > Date.now()) {
    throw CliError.usage(`invalid --before "${options.before}": it is in the future`);
  }
  const dryRun = options.dryRun === true;
  return withService(RecordHistoryService, async (service) => {
    const counts = await service.prune(disease, before, dryRun);
    const moment = new Date(before).toISOString();
    out(
      dryRun
        ? `would remove: ${counts.revisions} revision(s) of ${disease.key} superseded before ${moment} (--dry-run: nothing written)`
        : `removed: ${counts.revisions} revision(s) of ${disease.key} superseded before ${moment}, ${counts.commits} emptied commit(s) of the change feed; as_of before ${moment} is refused from now on`,
    );
  });
}

/** A daily figure with its sign: `+5`, `-5` (sources revise past days downwards), `+0`. */
function signed(value: number): string {
  return value < 0 ? String(value) : `+${value}`;
}
