import { Command } from 'commander';
import { SourceRepository, SourceState } from '@app/database';
import { withService } from '../cli-context';

const time = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

/** One block per source: its key line, then what the last attempt did. */
function sourceLines(source: SourceState): string[] {
  return [
    `${source.dataset} ${source.url}`,
    `  last attempt: ${time(source.lastAttemptAt)}  ${source.outcome}`,
    `  last success: ${time(source.lastSuccessAt)}`,
    `  rows:         ${source.rowsInserted} inserted, ${source.rowsUpdated} updated`,
    ...(source.lastError ? [`  last error:   ${source.lastError}`] : []),
  ];
}

/** `sources`: every URL imported from, with how its last import went. */
export function sourcesCommand(): Command {
  return new Command('sources')
    .description('list the URLs imported from, with their last attempt, outcome and error')
    .action(() =>
      withService(SourceRepository, async (sources) => {
        const all = await sources.list();
        const lines = all.length ? all.flatMap(sourceLines) : ['No sources.'];
        process.stdout.write(`${lines.join('\n')}\n`);
      }),
    );
}
