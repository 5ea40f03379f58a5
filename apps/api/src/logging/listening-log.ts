import { AddressInfo } from 'node:net';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'pino';
import { API_PREFIX } from '../api-prefix';
import { DASHBOARD_PATH } from '../dashboard/dashboard-paths';
import { DOCS_PATH } from '../docs/api-docs';
import { APP_LOGGER } from './logging.module';

const EVERY_INTERFACE = new Set(['0.0.0.0', '::']);

/** What the address listened on means for who can reach the API. */
function reach(address: string): string {
  if (EVERY_INTERFACE.has(address)) return 'every interface: reachable from other machines';
  if (address === '::1' || address.startsWith('127.')) return 'loopback: this machine only';
  return 'this address only';
}

/**
 * Once listening, one info line saying where the API, the dashboard and the OpenAPI document
 * answer, and on which interface (HOST): the address the server really bound (PORT=0 included).
 */
export function logListening(app: NestFastifyApplication): void {
  const bound = app.getHttpServer().address() as AddressInfo;
  const host = EVERY_INTERFACE.has(bound.address)
    ? 'localhost'
    : bound.family === 'IPv6'
      ? `[${bound.address}]`
      : bound.address;
  const base = `http://${host}:${bound.port}`;
  const urls = {
    api: `${base}/${API_PREFIX}`,
    dashboard: `${base}${DASHBOARD_PATH}`,
    docs: `${base}/${DOCS_PATH}`,
  };
  const listen = `${bound.address}:${bound.port}`;
  app
    .get<Logger>(APP_LOGGER)
    .info(
      { context: 'NestApplication', listen, ...urls },
      `Listening on ${listen} (${reach(bound.address)}): API ${urls.api}, dashboard ` +
        `${urls.dashboard}, OpenAPI ${urls.docs}`,
    );
}
