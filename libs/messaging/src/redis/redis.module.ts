import { Module } from '@nestjs/common';
import { RedisConnections } from './redis-connections.service';

/** One set of Redis connections per application, shared by every module that talks to Redis. */
@Module({ providers: [RedisConnections], exports: [RedisConnections] })
export class RedisModule {}
