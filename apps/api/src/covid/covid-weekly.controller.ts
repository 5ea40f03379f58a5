import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { COVID_DISEASE } from '@app/diseases';
import { Public } from '../auth/public.decorator';
import { ApiCommonErrors } from '../common/api-responses';
import { CachedResponse } from '../response-cache/cached-response.decorator';
import { DiseaseWeeklyController } from '../disease-routes/disease-weekly.controller';

/**
 * `GET /covid/public/weekly`, `/covid/public/country/:country/weekly`,
 * `/covid/public/country/:country/corrections`, `/covid/public/map`, `/covid/public/countries`.
 */
@Public()
@CachedResponse('public')
@ApiTags('COVID-19 (public)')
@ApiCommonErrors()
@Controller('covid/public')
export class CovidWeeklyController extends DiseaseWeeklyController(COVID_DISEASE) {}
