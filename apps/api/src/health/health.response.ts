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
    example: 'Base de données indisponible. Réessayez plus tard.',
    description: 'Only on 503',
  })
  error?: string;
}
