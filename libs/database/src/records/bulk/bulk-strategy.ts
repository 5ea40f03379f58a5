import { SqlSession } from '../../sql-runner';
import { ChangeSet } from '../history/revision.repository';
import { UpsertCounts } from '../record-rows';
import { ChangeOrigin, RecordValues, StoredRecord } from '../disease.types';
import { BulkChange } from './bulk-statements';

/** What a database does its own way in a bulk write (`BulkLoadRepository`). */
export interface BulkStrategy {
  /**
   * Before the write transaction: the records left to write (`pending`), those found equal to the
   * stored ones (`unchanged`), or the whole write's counts when it was done another way (`loaded`).
   */
  beforeTransaction(
    records: RecordValues[],
    origin: ChangeOrigin,
    signal?: AbortSignal,
  ): Promise<{ pending: RecordValues[]; unchanged: number; loaded?: UpsertCounts }>;

  /**
   * Inside the transaction, each key once: writes `changed` (`stored`: the records stored under
   * their keys), appends their revisions to `changes` and corrects `counts` if need be.
   */
  writeEachOnce(
    manager: SqlSession,
    changed: BulkChange[],
    stored: Map<string, StoredRecord>,
    changes: ChangeSet,
    counts: UpsertCounts,
    signal?: AbortSignal,
  ): Promise<void>;
}
