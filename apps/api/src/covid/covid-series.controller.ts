import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { COVID_DISEASE } from '@app/diseases';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { DiseaseSeriesController } from '../disease-routes/disease-series.controller';

/** `GET /covid/series` (token, `covid:read`). */
@ApiTags('COVID-19')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('covid/series')
export class CovidSeriesController extends DiseaseSeriesController(COVID_DISEASE) {}
