import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDisease, describeError } from '@app/common';
import { AppConfig, InjectConfig } from '@app/config';
import { RecordsService } from '@app/diseases';

/**
 * On a new installation (no record at all) and without scheduled sync, one log line says how to
 * load data, so that `npm start` on an empty store does not leave its user guessing.
 */
@Injectable()
export class StartupHintService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Data');

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    @InjectDisease(RecordsService, 'covid') private readonly covid: RecordsService,
    @InjectDisease(RecordsService, 'mpox') private readonly mpox: RecordsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.sync) return;
    try {
      const empty = (await this.covid.isEmpty()) && (await this.mpox.isEmpty());
      if (!empty) return;
    } catch (error) {
      this.logger.warn(`could not tell whether the store is empty: ${describeError(error)}`);
      return;
    }
    this.logger.log(
      'the store is empty: load data with "npm run cli -- import covid|mpox <file-or-URL>", or set ' +
        'SYNC_SOURCES=covid=<url>,mpox=<url> (and SYNC_INTERVAL, default 6h) to sync from the sources',
    );
  }
}
