import { MPOX_SERIES } from '@app/series';
import { SeriesChangesController } from '../series/series-changes.controller';

/** `GET /mpox/changes`: the change feed. */
export class MpoxChangesController extends SeriesChangesController(MPOX_SERIES) {}
