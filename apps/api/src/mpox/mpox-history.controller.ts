import { MPOX_SERIES } from '@app/series';
import { SeriesHistoryController } from '../series/series-history.controller';

/** `/mpox/public/weekly`, `/mpox/public/country/:country/weekly`, `/mpox/public/countries`. */
export class MpoxHistoryController extends SeriesHistoryController(MPOX_SERIES) {}
