export * from './record-change.module';
export * from './record-change.service';
export * from './record-writer.service';
export * from './write-notice';
export * from './record-reverter';
export * from './record-writer.module';
