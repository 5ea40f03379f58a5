import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { MPOX_DISEASE } from '@app/diseases';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { DiseaseChangesController } from '../disease-routes/disease-changes.controller';

/** `GET /mpox/changes`: the change feed (token, `mpox:read`). */
@ApiTags('MPOX')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('mpox/changes')
export class MpoxChangesController extends DiseaseChangesController(MPOX_DISEASE) {}
