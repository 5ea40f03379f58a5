import { CHANGE_CHANNELS, ChangeAnnouncer } from '@app/messaging';

/**
 * How a write is made known: this process drops its cached reads of the disease and tells the
 * other API instances (with REDIS_URL). An API instance's is `RecordChangeService`.
 */
export interface WriteNotice {
  written(disease: string): void | Promise<void>;
}

/**
 * The notice of a process without cached reads (the admin command line, an import, the sync
 * worker): an announcement on a connection of its own, nothing without a Redis URL.
 */
export function announcingNotice(redisUrl: string | undefined): WriteNotice {
  const announcer = new ChangeAnnouncer(redisUrl);
  return { written: (disease) => announcer.announce(CHANGE_CHANNELS.records, disease) };
}
