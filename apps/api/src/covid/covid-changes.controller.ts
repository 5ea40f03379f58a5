import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { COVID_SERIES } from '@app/series';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { SeriesChangesController } from '../series/series-changes.controller';

/** `GET /covid/changes`: the change feed (token, `covid:read`). */
@ApiTags('COVID-19')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('covid/changes')
export class CovidChangesController extends SeriesChangesController(COVID_SERIES) {}
