import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { COVID_SERIES } from '@app/series';
import { Public } from '../auth/public.decorator';
import { ApiCommonErrors } from '../common/api-responses';
import { CachedResponse } from '../response-cache/cached-response.decorator';
import { SeriesWeeklyController } from '../series/series-weekly.controller';

/**
 * `GET /covid/public/weekly`, `/covid/public/country/:country/weekly`,
 * `/covid/public/country/:country/corrections`, `/covid/public/map`, `/covid/public/countries`.
 */
@Public()
@CachedResponse('public')
@ApiTags('COVID-19 (public)')
@ApiCommonErrors()
@Controller('covid/public')
export class CovidWeeklyController extends SeriesWeeklyController(COVID_SERIES) {}
