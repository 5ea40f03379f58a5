import 'reflect-metadata';
import { loadConfig } from '@app/config';
import { AppDataSource } from './app-data-source';
import { buildDataSourceOptions } from './data-source-options';

/** For the TypeORM CLI (`typeorm migration:show -d ...`): the same options as the app. */
export default new AppDataSource(buildDataSourceOptions(loadConfig().db));
