import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { COVID_SERIES } from '@app/series';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { SeriesVintagesController } from '../series/series-vintages.controller';

/** `GET /covid/vintages`: every version of every figure (token, `covid:read`). */
@ApiTags('COVID-19')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('covid/vintages')
export class CovidVintagesController extends SeriesVintagesController(COVID_SERIES) {}
