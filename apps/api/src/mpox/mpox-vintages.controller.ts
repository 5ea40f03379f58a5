import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { MPOX_DISEASE } from '@app/diseases';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { DiseaseVintagesController } from '../disease-routes/disease-vintages.controller';

/** `GET /mpox/vintages`: every version of every figure (token, `mpox:read`). */
@ApiTags('MPOX')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('mpox/vintages')
export class MpoxVintagesController extends DiseaseVintagesController(MPOX_DISEASE) {}
