import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { MPOX_SERIES } from '@app/series';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { SeriesFiguresController } from '../series/series-figures.controller';

/** `GET /mpox/series` (token, `mpox:read`). */
@ApiTags('MPOX')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('mpox/series')
export class MpoxSeriesController extends SeriesFiguresController(MPOX_SERIES) {}
