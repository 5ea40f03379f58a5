import { Module } from '@nestjs/common';
import { RedisModule } from '@app/messaging';
import { RecordChangeService } from './record-change.service';

/** One RecordChangeService per application, shared by every disease. */
@Module({
  imports: [RedisModule],
  providers: [RecordChangeService],
  exports: [RecordChangeService],
})
export class RecordChangeModule {}
