import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { MPOX_DISEASE } from '@app/diseases';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { DiseaseSeriesController } from '../disease-routes/disease-series.controller';

/** `GET /mpox/series` (token, `mpox:read`). */
@ApiTags('MPOX')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('mpox/series')
export class MpoxSeriesController extends DiseaseSeriesController(MPOX_DISEASE) {}
