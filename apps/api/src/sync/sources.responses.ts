import { ApiProperty } from '@nestjs/swagger';

const nullableTime = (description: string) =>
  ApiProperty({ type: 'string', format: 'date-time', nullable: true, description });

export class SyncScheduleResponse {
  @ApiProperty({ example: true, description: 'SYNC_SOURCES is set on this instance' })
  enabled: boolean;

  @ApiProperty({ type: 'string', nullable: true, example: '6h', description: 'SYNC_INTERVAL' })
  interval: string | null;

  @ApiProperty({ type: 'integer', nullable: true, example: 21600 })
  interval_seconds: number | null;

  @ApiProperty({ example: false, description: 'A run is under way on this instance' })
  running: boolean;

  @nullableTime('When this instance next tries a run')
  next_run_at: string | null;
}

export class SourceStatusResponse {
  @ApiProperty({ enum: ['covid', 'mpox'], example: 'covid' })
  dataset: string;

  @ApiProperty({
    description:
      "The source's name: a URL without credentials, query string or fragment (those stay in the configuration), or a file's name without its folder",
    example: 'https://example.org/WHO-COVID-19-global-daily-data.csv',
  })
  url: string;

  @ApiProperty({
    description: 'Listed in SYNC_SOURCES (else imported by hand from its URL, or a file)',
  })
  scheduled: boolean;

  @nullableTime('Last attempt (null before the first)')
  last_attempt_at: string | null;

  @nullableTime('Last attempt that ended updated or unchanged')
  last_success_at: string | null;

  @ApiProperty({ type: 'string', enum: ['updated', 'unchanged', 'failed'], nullable: true })
  outcome: string | null;

  @ApiProperty({ type: 'integer', description: 'Records the last import created' })
  rows_inserted: number;

  @ApiProperty({ type: 'integer', description: 'Records the last import changed' })
  rows_updated: number;

  @ApiProperty({ type: 'integer', description: 'Rows already stored with the same values' })
  rows_unchanged: number;

  @ApiProperty({
    type: 'integer',
    description:
      'Rows the last applied import left out on purpose (aggregates, rows without figures)',
  })
  rows_skipped: number;

  @ApiProperty({
    type: 'integer',
    description:
      'Stored figures the last applied import corrected (changed after their first publication: ' +
      'docs/corrections.md)',
  })
  figures_corrected: number;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'The last applied import: its revisions carry this id (a file applies whole or not at all)',
  })
  last_import_id: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'One line, never a stack trace' })
  last_error: string | null;

  @nullableTime('Next scheduled run (null when not scheduled)')
  next_run_at: string | null;
}

export class SourcesResponse {
  @ApiProperty({ type: SyncScheduleResponse })
  sync: SyncScheduleResponse;

  @ApiProperty({ type: [SourceStatusResponse] })
  sources: SourceStatusResponse[];
}
