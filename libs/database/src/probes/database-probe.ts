import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The health check's one statement: does the database answer at all. */
@Injectable()
export class DatabaseProbe {
  constructor(private readonly dataSource: DataSource) {}

  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }
}
