import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { MPOX_DISEASE } from '@app/diseases';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { DiseaseCountriesController } from '../disease-routes/disease-countries.controller';

/** `GET /mpox/countries`, `GET /mpox/stats` (token, `mpox:read`). */
@ApiTags('MPOX')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('mpox')
export class MpoxCountriesController extends DiseaseCountriesController(MPOX_DISEASE) {}
