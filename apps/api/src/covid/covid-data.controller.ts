import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { COVID_DISEASE } from '@app/diseases';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { DiseaseDataController } from '../disease-routes/disease-data.controller';

/**
 * `GET/POST /covid/data`, `POST /covid/data/bulk`, `GET/PUT/DELETE /covid/data/:id`,
 * `GET /covid/data/:id/history` (token, `covid:read` or `covid:write`).
 */
@ApiTags('COVID-19')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('covid/data')
export class CovidDataController extends DiseaseDataController(COVID_DISEASE) {}
