import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { MPOX_SERIES } from '@app/series';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { SeriesChangesController } from '../series/series-changes.controller';

/** `GET /mpox/changes`: the change feed (token, `mpox:read`). */
@ApiTags('MPOX')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('mpox/changes')
export class MpoxChangesController extends SeriesChangesController(MPOX_SERIES) {}
