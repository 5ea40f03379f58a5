import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { COVID_DISEASE } from '@app/diseases';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { DiseaseVintagesController } from '../disease-routes/disease-vintages.controller';

/** `GET /covid/vintages`: every version of every figure (token, `covid:read`). */
@ApiTags('COVID-19')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('covid/vintages')
export class CovidVintagesController extends DiseaseVintagesController(COVID_DISEASE) {}
