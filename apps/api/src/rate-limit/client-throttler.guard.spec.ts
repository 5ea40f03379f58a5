import { CanActivate, Controller, Get, Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import {
  SkipThrottle,
  Throttle,
  ThrottlerGenerateKeyFunction,
  ThrottlerGuard,
  ThrottlerModule,
} from '@nestjs/throttler';
import { FastifyReply, FastifyRequest } from 'fastify';
import request from 'supertest';
import { ApiError } from '@app/common';
import { TokenService } from '../auth/token.service';
import { ClientThrottlerGuard } from './client-throttler.guard';
import { MemoryThrottlerStorage } from './memory-throttler.storage';
import { RouteContext } from '../route-metadata/route-context';
import { throttlerKey } from './throttler-key';

let perRequestLimit = 1;

@Controller()
class LimitsController {
  @Get('default')
  byDefault(): string {
    return 'ok';
  }

  @Get('other')
  other(): string {
    return 'ok';
  }

  @Throttle({ default: { limit: 2, ttl: 60_000 } })
  @Get('two')
  two(): string {
    return 'ok';
  }

  /** A limit computed per request: the library's own path. */
  @Throttle({ default: { limit: () => perRequestLimit, ttl: 60_000 } })
  @Get('computed')
  computed(): string {
    return 'ok';
  }

  @SkipThrottle()
  @Get('free')
  free(): string {
    return 'ok';
  }
}

@SkipThrottle()
@Controller('free-class')
class FreeController {
  @Get()
  any(): string {
    return 'ok';
  }
}

@Throttle({ default: { limit: 4, ttl: 60_000 } })
@Controller('four')
class FourController {
  @Get()
  any(): string {
    return 'ok';
  }
}

/** Inherits the handler of FourController with a limit of its own: another route, another limit. */
@Throttle({ default: { limit: 1, ttl: 60_000 } })
@Controller('one')
class OneController extends FourController {}

/**
 * The library reads each route's settings once (`MemoReflector`) instead of on every request;
 * these checks prove the values read are the ones it would read, route by route.
 */
describe('ClientThrottlerGuard (limits settled once per route)', () => {
  let app: NestFastifyApplication;
  let storage: MemoryThrottlerStorage;

  beforeEach(async () => {
    storage = new MemoryThrottlerStorage();
    const moduleRef = await Test.createTestingModule({
      imports: [
        ThrottlerModule.forRoot({
          throttlers: [{ ttl: 60_000, limit: 3 }],
          storage,
          generateKey: (_context, tracker, name) => `${name}:${tracker}`,
        }),
      ],
      controllers: [LimitsController, FreeController, FourController, OneController],
      providers: [
        { provide: APP_GUARD, useClass: ClientThrottlerGuard },
        // Every caller is anonymous: counted by address, like the public routes.
        { provide: TokenService, useValue: { identify: () => ({ kind: 'anonymous' }) } },
      ],
    }).compile();
    app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), {
      logger: false,
    });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterEach(async () => {
    await app.close();
    storage.onApplicationShutdown();
  });

  const statuses = async (path: string, count: number): Promise<number[]> => {
    const result: number[] = [];
    for (let i = 0; i < count; i++)
      result.push((await request(app.getHttpServer()).get(path)).status);
    return result;
  };

  it('applies the module limit, one budget across routes, with the rate-limit headers', async () => {
    const first = await request(app.getHttpServer()).get('/default');
    expect(first.status).toBe(200);
    expect(first.headers['x-ratelimit-limit']).toBe('3');
    expect(first.headers['x-ratelimit-remaining']).toBe('2');
    expect(await statuses('/other', 3)).toEqual([200, 200, 429]);
  });

  it("applies a route's own @Throttle limit", async () => {
    expect(await statuses('/two', 3)).toEqual([200, 200, 429]);
    const again = await request(app.getHttpServer()).get('/two');
    expect(again.status).toBe(429);
    expect(Number(again.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('reads a limit computed per request on every request', async () => {
    perRequestLimit = 1;
    expect(await statuses('/computed', 1)).toEqual([200]);
    // Settled once, the limit would stay 1 and this second hit would be refused.
    perRequestLimit = 3;
    expect(await statuses('/computed', 2)).toEqual([200, 200]);
  });

  it('never limits @SkipThrottle routes (on the handler or the class)', async () => {
    expect(await statuses('/free', 6)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await statuses('/free-class', 6)).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it('settles the limits per controller and handler: a shared handler keeps each class limit', async () => {
    // One budget per client across routes: the second hit is within /four's limit, not /one's.
    const one = await request(app.getHttpServer()).get('/one');
    expect([one.status, one.headers['x-ratelimit-limit']]).toEqual([200, '1']);
    const four = await request(app.getHttpServer()).get('/four');
    expect([four.status, four.headers['x-ratelimit-limit']]).toEqual([200, '4']);
    expect(await statuses('/one', 1)).toEqual([429]);
  });
});

/**
 * For the answers served before Nest's router, with the counters in memory, the guard counts
 * without a promise (`canActivateNow`, the library's `handleRequest` step by step, header names
 * worked out once): its `X-RateLimit-*` and `Retry-After-*` headers must be the library's own, for
 * named throttlers and `setHeaders: false` too, and it must leave to the library any route it has
 * not read whole or that has throttler settings of its own.
 */
describe('ClientThrottlerGuard.canActivateNow (the library’s counting, without a promise)', () => {
  const RATE_HEADERS = /^(x-ratelimit-|retry-after)/;
  type Answer = { status: number; headers: Record<string, string> };

  async function start(guard: Type<CanActivate>, generateKey?: ThrottlerGenerateKeyFunction) {
    const storage = new MemoryThrottlerStorage();
    let address = '';
    const moduleRef = await Test.createTestingModule({
      imports: [
        ThrottlerModule.forRoot({
          throttlers: [
            { ttl: 60_000, limit: 5 },
            { name: 'short', ttl: 60_000, limit: 2 },
            { name: 'quiet', ttl: 60_000, limit: 4, setHeaders: false },
          ],
          storage,
          generateKey,
        }),
      ],
      controllers: [LimitsController],
      providers: [
        guard,
        { provide: APP_GUARD, useExisting: guard },
        {
          provide: TokenService,
          useValue: {
            // A client by the test's own header; otherwise anonymous, counted by address.
            identify: (request: { ip: string; headers: Record<string, string> }) => {
              const client = request.headers['x-client'];
              if (client) return { kind: 'client', client, scopes: new Set() };
              address ||= request.ip;
              return { kind: 'anonymous' };
            },
          },
        },
      ],
    }).compile();
    const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), {
      logger: false,
    });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    const close = async () => {
      await app.close();
      storage.onApplicationShutdown();
    };
    const viaNest = async (path: string): Promise<Answer> => {
      const response = await request(app.getHttpServer()).get(path);
      const headers = Object.fromEntries(
        Object.entries(response.headers as Record<string, string>).filter(([name]) =>
          RATE_HEADERS.test(name),
        ),
      );
      return { status: response.status, headers };
    };
    /**
     * The guard asked as `serveCachedResponses` asks it, by default from the address Nest's
     * requests came from.
     */
    const now = (
      handler: keyof LimitsController,
      ip = address,
      client?: string,
    ): Answer | undefined => {
      const headers: Record<string, string> = {};
      // Names in lower case, as Fastify keeps them.
      const reply = {
        header: (name: string, value: unknown) => (headers[name.toLowerCase()] = String(value)),
      };
      const context = new RouteContext(
        { ip, headers: client ? { 'x-client': client } : {} } as unknown as FastifyRequest,
        reply as unknown as FastifyReply,
        LimitsController,
        LimitsController.prototype[handler],
      );
      try {
        const verdict = app.get<ClientThrottlerGuard>(guard).canActivateNow(context);
        return verdict === undefined ? undefined : { status: 200, headers };
      } catch (error) {
        return { status: (error as ApiError).getStatus(), headers };
      }
    };
    return { close, viaNest, now };
  }

  afterEach(() => jest.restoreAllMocks());

  it('sets the same headers as ThrottlerGuard, plus Retry-After on the 429', async () => {
    // The clock stands still, so that the seconds left (`*-Reset`, `Retry-After-*`) cannot differ
    // between the two apps however slow the machine.
    jest.spyOn(Date, 'now').mockReturnValue(Date.UTC(2026, 0, 1));
    // `handleRequest` is the library's own step; `protected`, hence the cast.
    const libraryPath = jest.spyOn(
      ThrottlerGuard.prototype as unknown as { handleRequest: () => Promise<boolean> },
      'handleRequest',
    );
    const stock = await start(ThrottlerGuard);
    const library: Answer[] = [];
    try {
      for (let i = 0; i < 3; i++) library.push(await stock.viaNest('/default'));
    } finally {
      await stock.close();
    }
    const app = await start(ClientThrottlerGuard);
    try {
      // The first request goes through Nest's router: the library reads the route whole.
      const ours = [await app.viaNest('/default')];
      libraryPath.mockClear();
      ours.push(app.now('byDefault') as Answer, app.now('byDefault') as Answer);
      // Counted without the library's path.
      expect(libraryPath).not.toHaveBeenCalled();
      expect(library.map((answer) => answer.status)).toEqual([200, 200, 429]);
      expect(ours.map((answer) => answer.status)).toEqual([200, 200, 429]);
      expect(ours[0].headers).toEqual({
        'x-ratelimit-limit': '5',
        'x-ratelimit-remaining': '4',
        'x-ratelimit-reset': '60',
        'x-ratelimit-limit-short': '2',
        'x-ratelimit-remaining-short': '1',
        'x-ratelimit-reset-short': '60',
      });
      expect(ours.slice(0, 2)).toEqual(library.slice(0, 2));
      expect(ours[2].headers).toEqual({
        ...library[2].headers,
        'retry-after': ours[2].headers['retry-after-short'],
      });
      expect(ours[2].headers['retry-after-short']).toBe('60');
    } finally {
      await app.close();
    }
  });

  it('leaves to the library the routes it has not read, or with throttler settings of their own', async () => {
    const app = await start(ClientThrottlerGuard);
    try {
      // Not yet through Nest's router: nothing counted, the library decides.
      expect(app.now('byDefault')).toBeUndefined();
      for (const path of ['/two', '/computed', '/free']) {
        expect((await app.viaNest(path)).status).toBe(200);
      }
      expect(app.now('two')).toBeUndefined();
      expect(app.now('computed')).toBeUndefined();
      expect(app.now('free')).toBeUndefined();
      await app.viaNest('/other');
      expect(app.now('other')?.status).toBe(200);
    } finally {
      await app.close();
    }
  });

  // The `short` throttler allows 2 requests per caller.
  const statusesNow = (count: number, ask: () => Answer | undefined) =>
    Array.from({ length: count }, () => ask()?.status);

  it('keeps the keys it made per address and per client with throttlerKey', async () => {
    const tracked = jest.spyOn(
      ClientThrottlerGuard.prototype as unknown as { trackerOf: () => string },
      'trackerOf',
    );
    const app = await start(ClientThrottlerGuard, throttlerKey);
    try {
      await app.viaNest('/default');
      await app.viaNest('/other');
      tracked.mockClear();
      expect(statusesNow(3, () => app.now('other', '192.0.2.1'))).toEqual([200, 200, 429]);
      // Every route counts in the caller's one budget.
      expect(app.now('byDefault', '192.0.2.1')?.status).toBe(429);
      expect(app.now('other', '192.0.2.2')?.status).toBe(200);
      // One IPv6 /64 is one caller.
      expect(statusesNow(2, () => app.now('other', '2001:db8::1'))).toEqual([200, 200]);
      expect(app.now('other', '2001:db8::2')?.status).toBe(429);
      // A client is one caller whatever its address.
      const acme = ['192.0.2.10', '192.0.2.11', '192.0.2.12'].map((ip) =>
        app.now('other', ip, 'acme'),
      );
      expect(acme.map((answer) => answer?.status)).toEqual([200, 200, 429]);
      // Made once per address or client: 192.0.2.1 and .2, the two IPv6 addresses, acme.
      expect(tracked).toHaveBeenCalledTimes(5);
      // Past the keys kept they are made again, and the counts stay right.
      for (let i = 0; i < 10_001; i++) app.now('other', `10.0.${i >> 8}.${i & 255}`);
      expect(app.now('other', '192.0.2.1')?.status).toBe(429);
      expect(statusesNow(2, () => app.now('other', '10.0.0.0'))).toEqual([200, 429]);
    } finally {
      await app.close();
    }
  });

  it("keeps no keys with a key that depends on the route (the library's default)", async () => {
    const app = await start(ClientThrottlerGuard);
    try {
      await app.viaNest('/default');
      await app.viaNest('/other');
      expect(statusesNow(3, () => app.now('byDefault', '192.0.2.5'))).toEqual([200, 200, 429]);
      expect(app.now('other', '192.0.2.5')?.status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
