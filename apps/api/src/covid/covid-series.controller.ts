import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { COVID_SERIES } from '@app/series';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { SeriesFiguresController } from '../series/series-figures.controller';

/** `GET /covid/series` (token, `covid:read`). */
@ApiTags('COVID-19')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('covid/series')
export class CovidSeriesController extends SeriesFiguresController(COVID_SERIES) {}
