/**
 * Reads of the records kept while the records' version is the one they were read at: a place's
 * days and a region's sums, the derived series' costliest reads. On SQLite they hold the event loop
 * (better-sqlite3 is synchronous), so the read cache's periodic re-reads stalled every request
 * behind them. `version` must change with every committed write; it is read before the value, so
 * a write between the two only costs one more read, never a stale answer. At most `size` values
 * are kept, the least recently read dropped first.
 */
export class VersionedMemo<T> {
  private readonly kept = new Map<string, { version: string; value: T }>();

  constructor(
    private readonly version: () => Promise<string>,
    private readonly size: number,
  ) {}

  async get(key: string, read: () => Promise<T>): Promise<T> {
    const version = await this.version();
    const hit = this.kept.get(key);
    this.kept.delete(key);
    if (hit?.version === version) {
      this.kept.set(key, hit);
      return hit.value;
    }
    const value = await read();
    this.kept.set(key, { version, value });
    if (this.kept.size > this.size) this.kept.delete(this.kept.keys().next().value as string);
    return value;
  }
}
