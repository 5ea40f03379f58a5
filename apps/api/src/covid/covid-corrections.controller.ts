import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { COVID_DISEASE } from '@app/diseases';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { DiseaseCorrectionsController } from '../disease-routes/disease-corrections.controller';

/** `GET /covid/corrections`: figures changed after their first publication (token, `covid:read`). */
@ApiTags('COVID-19')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('covid/corrections')
export class CovidCorrectionsController extends DiseaseCorrectionsController(COVID_DISEASE) {}
