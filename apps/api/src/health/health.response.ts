import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class HealthResponse {
  @ApiProperty({ enum: ['ok', 'degraded', 'unavailable', 'stopping'], example: 'ok' })
  status: string;

  @ApiProperty({ enum: ['up', 'down'], example: 'up' })
  database: string;

  @ApiPropertyOptional({
    enum: ['up', 'down'],
    example: 'up',
    description: 'Only when REDIS_URL is set',
  })
  redis?: string;

  @ApiPropertyOptional({
    enum: ['fresh', 'stale', 'pending'],
    example: 'fresh',
    description:
      'Only with SYNC_SOURCES: stale once the last success of a scheduled source is older than ' +
      'three SYNC_INTERVALs (the status stays 200); pending before the first success',
  })
  data?: string;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    example: 3600,
    description: 'Only with SYNC_SOURCES: seconds since the oldest last success (null before one)',
  })
  data_age_seconds?: number | null;

  @ApiPropertyOptional({
    example: 'Base de données indisponible. Réessayez plus tard.',
    description: 'Only on 503',
  })
  error?: string;
}
