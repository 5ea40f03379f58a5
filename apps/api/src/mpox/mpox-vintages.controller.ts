import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { MPOX_SERIES } from '@app/series';
import { ApiCommonErrors, ApiTokenErrors } from '../common/api-responses';
import { SeriesVintagesController } from '../series/series-vintages.controller';

/** `GET /mpox/vintages`: every version of every figure (token, `mpox:read`). */
@ApiTags('MPOX')
@ApiTokenErrors()
@ApiCommonErrors()
@Controller('mpox/vintages')
export class MpoxVintagesController extends SeriesVintagesController(MPOX_SERIES) {}
