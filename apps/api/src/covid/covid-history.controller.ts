import { COVID_SERIES } from '@app/series';
import { SeriesHistoryController } from '../series/series-history.controller';

/** `/covid/public/weekly`, `/covid/public/country/:country/weekly`, `/covid/public/countries`. */
export class CovidHistoryController extends SeriesHistoryController(COVID_SERIES) {}
