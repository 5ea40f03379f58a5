import { Module } from '@nestjs/common';
import { ThrottlerStorageModule } from '../rate-limit/throttler-storage.module';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';
import { ShutdownDrain } from './shutdown-drain.service';

@Module({
  imports: [ThrottlerStorageModule],
  controllers: [HealthController],
  providers: [HealthService, ShutdownDrain],
})
export class HealthModule {}
