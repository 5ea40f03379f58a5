/** Runs at most `max` tasks at once; the others wait their turn, in order. */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly max: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiting task, if any.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
