import { COVID_SERIES } from '@app/series';
import { SeriesDataController } from '../series/series-data.controller';

/** `GET/POST /covid/data`, `PUT/DELETE /covid/data/:id`, `/covid/countries`, `/covid/stats`. */
export class CovidDataController extends SeriesDataController(COVID_SERIES) {}
