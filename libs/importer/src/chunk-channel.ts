/**
 * Chunks handed from the parser to the transaction that writes them, as an async iterable: the
 * writer waits for the next chunk, the parser for room when `ahead` chunks are waiting already.
 * `fail` makes the writer's iteration throw (its transaction rolls back); `end` lets it finish.
 */
export class ChunkChannel<T> implements AsyncIterable<T> {
  private readonly queue: T[] = [];
  private ended = false;
  private failure?: Error;
  private wake?: () => void;
  private room?: () => void;

  constructor(private readonly ahead = 2) {}

  /** Queues a chunk; resolves once the writer has room for another. */
  async push(chunk: T): Promise<void> {
    this.queue.push(chunk);
    this.signal();
    while (this.queue.length >= this.ahead && !this.failure && !this.ended) {
      await new Promise<void>((resolve) => (this.room = resolve));
    }
  }

  end(): void {
    this.ended = true;
    this.signal();
  }

  fail(error: Error): void {
    this.failure ??= error;
    this.signal();
  }

  private signal(): void {
    this.wake?.();
    this.wake = undefined;
    if (this.failure || this.ended) {
      this.room?.();
      this.room = undefined;
    }
  }

  /** Whether `fail` was called: pushing is useless from then on. */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      if (this.failure) throw this.failure;
      const next = this.queue.shift();
      if (next !== undefined) {
        this.room?.();
        this.room = undefined;
        yield next;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}
