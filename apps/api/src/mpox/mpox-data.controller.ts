import { MPOX_SERIES } from '@app/series';
import { SeriesDataController } from '../series/series-data.controller';

/** `GET/POST /mpox/data`, `PUT/DELETE /mpox/data/:id`, `/mpox/countries`, `/mpox/stats`. */
export class MpoxDataController extends SeriesDataController(MPOX_SERIES) {}
