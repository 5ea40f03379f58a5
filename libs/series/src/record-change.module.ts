import { Module } from '@nestjs/common';
import { RecordChangeService } from './record-change.service';

/** One RecordChangeService per application, shared by every series. */
@Module({ providers: [RecordChangeService], exports: [RecordChangeService] })
export class RecordChangeModule {}
