import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig, InjectConfig } from '@app/config';

export interface HealthReport {
  status: 'ok' | 'unavailable';
  database: 'up' | 'down';
}

/** The probe never waits longer than this, nor than the database timeout (`DB_TIMEOUT_MS`). */
const PROBE_TIMEOUT_MS = 2000;

@Injectable()
export class HealthService {
  private readonly probeTimeoutMs: number;

  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig() config: AppConfig,
  ) {
    this.probeTimeoutMs = Math.min(PROBE_TIMEOUT_MS, config.db.timeoutMs);
  }

  async check(): Promise<HealthReport> {
    const database = (await this.databaseAnswers()) ? 'up' : 'down';
    return { status: database === 'up' ? 'ok' : 'unavailable', database };
  }

  private async databaseAnswers(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.probeTimeoutMs);
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
