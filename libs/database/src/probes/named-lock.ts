import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Gives a lock back; never throws. */
export type ReleaseNamedLock = () => Promise<void>;

/**
 * MySQL's named locks (`GET_LOCK`), held by one connection of their own until released, so that a
 * process that dies frees its lock with its connection.
 */
@Injectable()
export class NamedLocks {
  constructor(private readonly dataSource: DataSource) {}

  /** The lock `name` at once, or undefined when another connection holds it; throws when the database cannot answer. */
  async tryAcquire(name: string): Promise<ReleaseNamedLock | undefined> {
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.connect();
      const rows = (await runner.query('SELECT GET_LOCK(?, 0) AS got', [name])) as {
        got: unknown;
      }[];
      if (Number(rows[0]?.got) === 1) {
        return async () => {
          await runner.query('SELECT RELEASE_LOCK(?)', [name]).catch(() => undefined);
          await runner.release().catch(() => undefined);
        };
      }
    } catch (error) {
      await runner.release().catch(() => undefined);
      throw error;
    }
    await runner.release().catch(() => undefined);
    return undefined;
  }
}
