import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { COVID_SERIES } from '@app/series';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { SeriesCatalogController } from '../series/series-catalog.controller';

/** `GET /covid/countries`, `GET /covid/stats` (token, `covid:read`). */
@ApiTags('COVID-19')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('covid')
export class CovidCatalogController extends SeriesCatalogController(COVID_SERIES) {}
