import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface HealthReport {
  status: 'ok' | 'unavailable';
  database: 'up' | 'down';
}

const PROBE_TIMEOUT_MS = 2000;

@Injectable()
export class HealthService {
  constructor(private readonly dataSource: DataSource) {}

  async check(): Promise<HealthReport> {
    const database = (await this.databaseAnswers()) ? 'up' : 'down';
    return { status: database === 'up' ? 'ok' : 'unavailable', database };
  }

  private async databaseAnswers(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
    });
    try {
      const probe = this.dataSource
        .query('SELECT 1')
        .then(() => true)
        .catch(() => false);
      return await Promise.race([probe, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
