import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { COVID_DISEASE } from '@app/diseases';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { DiseaseCountriesController } from '../disease-routes/disease-countries.controller';

/** `GET /covid/countries`, `GET /covid/stats` (token, `covid:read`). */
@ApiTags('COVID-19')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('covid')
export class CovidCountriesController extends DiseaseCountriesController(COVID_DISEASE) {}
