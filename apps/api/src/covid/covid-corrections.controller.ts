import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { COVID_SERIES } from '@app/series';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { SeriesCorrectionsController } from '../series/series-corrections.controller';

/** `GET /covid/corrections`: figures changed after their first publication (token, `covid:read`). */
@ApiTags('COVID-19')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('covid/corrections')
export class CovidCorrectionsController extends SeriesCorrectionsController(COVID_SERIES) {}
