import { NamedLocks } from '@app/database';
import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { RedisModule } from '@app/messaging';
import { ImporterModule } from '@app/importer';
import { RecordChangeModule } from '@app/diseases';
import { CovidModule } from '../covid/covid.module';
import { MpoxModule } from '../mpox/mpox.module';
import { SourcesController } from './sources.controller';
import { StartupHintService } from './startup-hint.service';
import { SyncLockService } from './sync-lock.service';
import { SyncRunner } from './sync-runner.service';
import { SyncStatusService } from './sync-status.service';
import { SyncService } from './sync.service';

/** Scheduled sync from the sources' URLs, its lock and status (`/api/sources`, health). */
@Module({
  imports: [
    ScheduleModule.forRoot(),
    RedisModule,
    RecordChangeModule,
    ImporterModule,
    CovidModule,
    MpoxModule,
  ],
  controllers: [SourcesController],
  providers: [
    SyncService,
    SyncLockService,
    NamedLocks,
    SyncRunner,
    SyncStatusService,
    StartupHintService,
  ],
  exports: [SyncStatusService],
})
export class SyncModule {}
