import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { MPOX_SERIES } from '@app/series';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { SeriesCountriesController } from '../series/series-countries.controller';

/** `GET /mpox/countries`, `GET /mpox/stats` (token, `mpox:read`). */
@ApiTags('MPOX')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('mpox')
export class MpoxCountriesController extends SeriesCountriesController(MPOX_SERIES) {}
