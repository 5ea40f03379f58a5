export * from './record-change.module';
export * from './record-change.service';
export * from './record-writer.service';
export * from './record-writes.repository';
export * from './write-notice';
export * from './record-reverter';
