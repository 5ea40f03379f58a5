import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { COVID_SERIES } from '@app/series';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { SeriesCountriesController } from '../series/series-countries.controller';

/** `GET /covid/countries`, `GET /covid/stats` (token, `covid:read`). */
@ApiTags('COVID-19')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('covid')
export class CovidCountriesController extends SeriesCountriesController(COVID_SERIES) {}
