import { AppConfig, APP_CONFIG, nextSlot } from '@app/config';
import { SourceRepository } from '@app/database';
import { SourceStatus, sourcesReport } from '@app/importer';
import { withService } from '../cli-context';

/** One block per source: its key line, then what the last attempt did and the next run. */
function sourceLines(source: SourceStatus, syncing: boolean): string[] {
  const scheduled = syncing && !source.scheduled ? '  (not in SYNC_SOURCES)' : '';
  return [
    `${source.dataset} ${source.url}${scheduled}`,
    `  last attempt: ${source.last_attempt_at ?? '-'}  ${source.outcome ?? 'never run'}`,
    `  last success: ${source.last_success_at ?? '-'}`,
    `  rows:         ${source.rows_inserted} inserted, ${source.rows_updated} updated, ${source.rows_unchanged} unchanged, ${source.rows_skipped} skipped`,
    `  corrected:    ${source.figures_corrected} figure(s) (docs/corrections.md)`,
    ...(source.last_import_id ? [`  last import:  ${source.last_import_id}`] : []),
    ...(source.last_error ? [`  last error:   ${source.last_error}`] : []),
    ...(source.next_run_at ? [`  next run:     ${source.next_run_at}`] : []),
  ];
}

/** `sources` (declared in sources.command.ts, loaded when it runs). */
export function listSources(): Promise<void> {
  return withService(SourceRepository, async (sources, context) => {
    const config = context.get<AppConfig>(APP_CONFIG);
    const next = config.sync && nextSlot(Date.now(), config.sync.intervalMs);
    const report = sourcesReport(await sources.list(), config.sync, next, false);
    const lines = report.sources.length
      ? report.sources.flatMap((s) => sourceLines(s, report.sync.enabled))
      : ['No sources.'];
    process.stdout.write(`${lines.join('\n')}\n`);
  });
}
