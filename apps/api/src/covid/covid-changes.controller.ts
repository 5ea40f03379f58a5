import { COVID_SERIES } from '@app/series';
import { SeriesChangesController } from '../series/series-changes.controller';

/** `GET /covid/changes`: the change feed. */
export class CovidChangesController extends SeriesChangesController(COVID_SERIES) {}
