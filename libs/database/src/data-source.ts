import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from '@app/config';
import { buildDataSourceOptions } from './data-source-options';

/** For the TypeORM CLI (`typeorm migration:show -d ...`): the same options as the app. */
export default new DataSource(buildDataSourceOptions(loadConfig().db));
