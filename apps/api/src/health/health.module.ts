import { DatabaseProbe } from '@app/database';
import { Module } from '@nestjs/common';
import { RedisModule } from '@app/messaging';
import { SyncModule } from '../sync/sync.module';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';
import { ShutdownDrain } from './shutdown-drain.service';

@Module({
  imports: [RedisModule, SyncModule],
  controllers: [HealthController],
  providers: [HealthService, ShutdownDrain, DatabaseProbe],
})
export class HealthModule {}
