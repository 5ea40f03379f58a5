import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { MPOX_DISEASE } from '@app/diseases';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { DiseaseDataController } from '../disease-routes/disease-data.controller';

/**
 * `GET/POST /mpox/data`, `POST /mpox/data/bulk`, `GET/PUT/DELETE /mpox/data/:id`,
 * `GET /mpox/data/:id/history` (token, `mpox:read` or `mpox:write`).
 */
@ApiTags('MPOX')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('mpox/data')
export class MpoxDataController extends DiseaseDataController(MPOX_DISEASE) {}
