import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';

/** At least this long, and at least MIN_TURNS turns of the event loop. */
const DRAIN_MS = 250;
const MIN_TURNS = 5;

/**
 * First step of a shutdown on a signal, before the server closes: health answers 503 `stopping`
 * (so that a load balancer stops sending), and the event loop turns a few times so that requests
 * already sent to us (connections in the accept queue, bytes not yet read) are read and become
 * requests in flight, which the close then waits for, instead of being reset with the idle sockets.
 */
@Injectable()
export class ShutdownDrain implements BeforeApplicationShutdown {
  private draining = false;

  get stopping(): boolean {
    return this.draining;
  }

  async beforeApplicationShutdown(signal?: string): Promise<void> {
    // app.close() without a signal (tests, scripts): nothing in flight to wait for.
    if (!signal) return;
    this.draining = true;
    const started = Date.now();
    for (let turn = 0; turn < MIN_TURNS || Date.now() - started < DRAIN_MS; turn++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
