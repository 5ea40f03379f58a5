/**
 * Lets one waiter go per turn of the event loop, in arrival order. Streamed lists wait here
 * before each page: with several dumps at once, a plain `setImmediate` per page lets every dump
 * run a page in the same turn, back to back, before the loop reads the next requests.
 */
export class EventLoopTurns {
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;

  /** Resolves in a later turn of the event loop, after the waiters that came before. */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.waiting.shift()?.();
      if (this.waiting.length) this.schedule();
    });
  }
}

/** One queue for the whole process: every stream of every disease takes its turn in it. */
export const STREAM_TURNS = new EventLoopTurns();
