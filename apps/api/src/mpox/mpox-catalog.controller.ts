import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { MPOX_SERIES } from '@app/series';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { SeriesCatalogController } from '../series/series-catalog.controller';

/** `GET /mpox/countries`, `GET /mpox/stats` (token, `mpox:read`). */
@ApiTags('MPOX')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('mpox')
export class MpoxCatalogController extends SeriesCatalogController(MPOX_SERIES) {}
