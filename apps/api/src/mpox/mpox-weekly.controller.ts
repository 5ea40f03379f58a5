import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { MPOX_DISEASE } from '@app/diseases';
import { Public } from '../auth/public.decorator';
import { ApiCommonErrors } from '../common/api-responses';
import { CachedResponse } from '../response-cache/cached-response.decorator';
import { DiseaseWeeklyController } from '../disease-routes/disease-weekly.controller';

/**
 * `GET /mpox/public/weekly`, `/mpox/public/country/:country/weekly`,
 * `/mpox/public/country/:country/corrections`, `/mpox/public/map`, `/mpox/public/countries`.
 */
@Public()
@CachedResponse('public')
@ApiTags('MPOX (public)')
@ApiCommonErrors()
@Controller('mpox/public')
export class MpoxWeeklyController extends DiseaseWeeklyController(MPOX_DISEASE) {}
