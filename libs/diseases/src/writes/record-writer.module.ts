import { DynamicModule, Module } from '@nestjs/common';
import { diseaseToken } from '@app/common';
import { APP_CONFIG, AppConfig } from '@app/config';
import {
  BulkLoadRepository,
  RecordRepositoriesModule,
  RecordWritesRepository,
  RevisionRepository,
  DiseaseDefinition,
} from '@app/database';
import { RecordChangeModule } from './record-change.module';
import { RecordChangeService } from './record-change.service';
import { RecordReverter } from './record-reverter';
import { RecordWriter } from './record-writer.service';
import { WriteNotice, announcingNotice } from './write-notice';

export interface RecordWriterOptions {
  /**
   * An API instance's: each call within the deadline, and the notice its `RecordChangeService`
   * (its cached reads dropped, the other instances told). Otherwise (imports, the command line,
   * the sync worker) no deadline, and an announcement on a connection of its own.
   */
  requests?: boolean;
}

/**
 * The write path of one disease (`RecordWriter`, under `diseaseToken(RecordWriter, key)`) and
 * the repositories it writes through, which it exports too.
 */
@Module({})
export class RecordWriterModule {
  /** One module per disease and kind: importing it twice gives the same instances. */
  private static readonly modules = new Map<string, DynamicModule>();

  static forDisease(
    definition: DiseaseDefinition,
    { requests = false }: RecordWriterOptions = {},
  ): DynamicModule {
    const id = `${definition.key}:${requests}`;
    const known = this.modules.get(id);
    if (known) return known;
    const token = (type: abstract new (...args: never[]) => unknown) =>
      diseaseToken(type, definition.key);
    const repositories = RecordRepositoriesModule.forDisease(definition, { deadline: requests });
    const module: DynamicModule = {
      module: RecordWriterModule,
      imports: [repositories, ...(requests ? [RecordChangeModule] : [])],
      providers: [
        {
          provide: token(RecordWriter),
          inject: [
            APP_CONFIG,
            token(RevisionRepository),
            token(RecordWritesRepository),
            token(BulkLoadRepository),
            ...(requests ? [RecordChangeService] : []),
          ],
          useFactory: (
            config: AppConfig,
            revisions: RevisionRepository,
            writes: RecordWritesRepository,
            bulk: BulkLoadRepository,
            changes?: RecordChangeService,
          ) => {
            const notice: WriteNotice = changes ?? announcingNotice(config.redisUrl);
            const reverter = new RecordReverter(revisions, writes);
            return new RecordWriter(definition, writes, bulk, reverter, notice);
          },
        },
      ],
      exports: [token(RecordWriter), repositories],
    };
    this.modules.set(id, module);
    return module;
  }
}
