export * from './dto';
export * from './read-cache';
export * from './series.module';
export * from './series.repository';
export * from './series.service';
export * from './series.types';
export * from './record-change.module';
export * from './record-change.service';
