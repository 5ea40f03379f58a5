import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { MPOX_SERIES } from '@app/series';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { SeriesCorrectionsController } from '../series/series-corrections.controller';

/** `GET /mpox/corrections`: figures changed after their first publication (token, `mpox:read`). */
@ApiTags('MPOX')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('mpox/corrections')
export class MpoxCorrectionsController extends SeriesCorrectionsController(MPOX_SERIES) {}
