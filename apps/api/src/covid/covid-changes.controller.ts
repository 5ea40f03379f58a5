import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { COVID_DISEASE } from '@app/diseases';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { DiseaseChangesController } from '../disease-routes/disease-changes.controller';

/** `GET /covid/changes`: the change feed (token, `covid:read`). */
@ApiTags('COVID-19')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('covid/changes')
export class CovidChangesController extends DiseaseChangesController(COVID_DISEASE) {}
