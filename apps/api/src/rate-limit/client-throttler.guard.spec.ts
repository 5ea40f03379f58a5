import { CanActivate, Controller, Get, Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { SkipThrottle, Throttle, ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import request from 'supertest';
import { TokenService } from '../auth/token.service';
import { ClientThrottlerGuard } from './client-throttler.guard';
import { MemoryThrottlerStorage } from './memory-throttler.storage';

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
 * The guard works out each route's limits once (RouteMemo) instead of on every request; these
 * checks prove the settled values are the ones the library would use, route by route.
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
 * With the counters in memory the guard counts without a promise (`countNow`), with the header
 * names worked out once per route: the `X-RateLimit-*` and `Retry-After-*` headers must be the
 * library's own, for named throttlers and `setHeaders: false` too.
 */
describe('ClientThrottlerGuard (the headers of named throttlers are the library’s)', () => {
  const RATE_HEADERS = /^(x-ratelimit-|retry-after)/;

  async function hits(guard: Type<CanActivate>, count: number) {
    const storage = new MemoryThrottlerStorage();
    const moduleRef = await Test.createTestingModule({
      imports: [
        ThrottlerModule.forRoot({
          throttlers: [
            { ttl: 60_000, limit: 5 },
            { name: 'short', ttl: 60_000, limit: 2 },
            { name: 'quiet', ttl: 60_000, limit: 4, setHeaders: false },
          ],
          storage,
        }),
      ],
      controllers: [LimitsController],
      providers: [
        { provide: APP_GUARD, useClass: guard },
        { provide: TokenService, useValue: { identify: () => ({ kind: 'anonymous' }) } },
      ],
    }).compile();
    const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), {
      logger: false,
    });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    try {
      const answers: { status: number; headers: Record<string, string> }[] = [];
      for (let i = 0; i < count; i++) {
        const response = await request(app.getHttpServer()).get('/default');
        const headers = Object.fromEntries(
          Object.entries(response.headers as Record<string, string>).filter(([name]) =>
            RATE_HEADERS.test(name),
          ),
        );
        answers.push({ status: response.status, headers });
      }
      return answers;
    } finally {
      await app.close();
      storage.onApplicationShutdown();
    }
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
    const library = await hits(ThrottlerGuard, 3);
    expect(libraryPath).toHaveBeenCalled();
    libraryPath.mockClear();
    const ours = await hits(ClientThrottlerGuard, 3);
    // Our guard took its own path (counting without a promise), not the library's.
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
  });
});
