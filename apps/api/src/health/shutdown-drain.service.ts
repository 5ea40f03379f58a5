import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { Server } from 'node:http';

/** At least this long, and at least MIN_TURNS turns of the event loop. */
const DRAIN_MS = 250;
const MIN_TURNS = 5;
/** How often keep-alive connections that have become idle are closed while stopping. */
const REAP_INTERVAL_MS = 100;

/**
 * First step of a shutdown on a signal, before the server closes:
 * - health answers 503 `stopping` (so that a load balancer stops sending) and responses carry
 *   `Connection: close` (see bootstrap);
 * - the event loop turns a few times so that requests already sent to us (bytes not yet read) are
 *   read and become requests in flight, which the close waits for, instead of being reset with
 *   the idle sockets;
 * - keep-alive connections whose last request finishes during the close are closed as soon as they
 *   are idle (Node closes idle connections only once, when the close starts).
 */
@Injectable()
export class ShutdownDrain implements BeforeApplicationShutdown {
  private draining = false;

  constructor(private readonly adapterHost: HttpAdapterHost) {}

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
    const server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    setInterval(() => server.closeIdleConnections(), REAP_INTERVAL_MS).unref();
  }
}
