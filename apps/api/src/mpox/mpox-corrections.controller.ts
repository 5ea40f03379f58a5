import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { MPOX_DISEASE } from '@app/diseases';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { DiseaseCorrectionsController } from '../disease-routes/disease-corrections.controller';

/** `GET /mpox/corrections`: figures changed after their first publication (token, `mpox:read`). */
@ApiTags('MPOX')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('mpox/corrections')
export class MpoxCorrectionsController extends DiseaseCorrectionsController(MPOX_DISEASE) {}
