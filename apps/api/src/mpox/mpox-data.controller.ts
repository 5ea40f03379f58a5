import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { MPOX_SERIES } from '@app/series';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { SeriesDataController } from '../series/series-data.controller';

/**
 * `GET/POST /mpox/data`, `POST /mpox/data/bulk`, `GET/PUT/DELETE /mpox/data/:id`,
 * `GET /mpox/data/:id/history` (token, `mpox:read` or `mpox:write`).
 */
@ApiTags('MPOX')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('mpox/data')
export class MpoxDataController extends SeriesDataController(MPOX_SERIES) {}
