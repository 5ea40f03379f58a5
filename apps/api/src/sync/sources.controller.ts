import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { RequireScope } from '../auth/require-scope.decorator';
import { SourcesResponse } from './sources.responses';
import { SourcesReport } from '@app/importer';
import { SyncStatusService } from './sync-status.service';

@ApiTags('Sources')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('sources')
export class SourcesController {
  constructor(private readonly status: SyncStatusService) {}

  @Get()
  @RequireScope('sources:read')
  @ApiOperation({
    summary: 'The data sources and the scheduled sync',
    description:
      'Every URL imported from (scheduled by SYNC_SOURCES or imported by hand), with its last ' +
      'attempt, last success, outcome, rows written and last error, and the next run.',
  })
  @ApiOkResponse({ description: 'The sources', type: SourcesResponse })
  sources(): Promise<SourcesReport> {
    return this.status.report();
  }
}
