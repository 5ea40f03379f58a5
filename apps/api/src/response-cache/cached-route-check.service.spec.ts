import {
  CallHandler,
  CanActivate,
  Controller,
  Get,
  Injectable,
  NestInterceptor,
  Param,
  ParseIntPipe,
  PipeTransform,
  Type,
  UseGuards,
  UseInterceptors,
  UsePipes,
} from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { AppConfigModule, loadConfig } from '@app/config';
import { HttpCache } from '../http-cache/http-cache.decorator';
import { CachedResponse } from './cached-response.decorator';
import { ResponseCacheModule } from './response-cache.module';

@Injectable()
class AllowGuard implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

@Injectable()
class PassInterceptor implements NestInterceptor {
  intercept(_: unknown, next: CallHandler) {
    return next.handle();
  }
}

@Injectable()
class SamePipe implements PipeTransform {
  transform(value: unknown): unknown {
    return value;
  }
}

@CachedResponse('public')
@Controller('clean')
class CleanController {
  @Get()
  read(): string {
    return '[]';
  }
}

@Controller('guarded')
class GuardedRouteController {
  @Get()
  @CachedResponse('public')
  @UseGuards(AllowGuard)
  read(): string {
    return '[]';
  }
}

@CachedResponse('private')
@UseGuards(AllowGuard)
@Controller('guarded-class')
class GuardedClassController {
  @Get()
  read(): string {
    return '[]';
  }
}

@Controller('intercepted')
class InterceptedController {
  @Get()
  @CachedResponse('public')
  @UseInterceptors(PassInterceptor)
  read(): string {
    return '[]';
  }
}

@Controller('piped')
class PipedController {
  @Get()
  @CachedResponse('public')
  @UsePipes(SamePipe)
  read(): string {
    return '[]';
  }
}

@Controller('param-piped')
class ParamPipedController {
  @Get(':id')
  @CachedResponse('public')
  read(@Param('id', ParseIntPipe) id: number): string {
    return `[${id}]`;
  }
}

/** Not kept in memory (`@HttpCache()` only): its own guards run through Nest, nothing to refuse. */
@Controller('http-cache-only')
class HttpCacheOnlyController {
  @Get()
  @HttpCache('private')
  @UseGuards(AllowGuard)
  @UseInterceptors(PassInterceptor)
  read(): string {
    return '[]';
  }
}

async function start(controller: Type<unknown>): Promise<void> {
  const module = await Test.createTestingModule({
    imports: [AppConfigModule.forRoot(loadConfig({})), ResponseCacheModule],
    controllers: [controller],
    providers: [AllowGuard, PassInterceptor, SamePipe],
  }).compile();
  const app = module.createNestApplication(new FastifyAdapter(), { logger: false });
  try {
    await app.init();
  } finally {
    await app.close();
  }
}

describe('CachedRouteCheck (start-up refusal of cached routes with enhancers of their own)', () => {
  it.each([CleanController, HttpCacheOnlyController])('starts with %p', async (controller) => {
    await expect(start(controller)).resolves.toBeUndefined();
  });

  it.each([
    [GuardedRouteController, 'GuardedRouteController.read has guards'],
    [GuardedClassController, 'GuardedClassController.read has guards'],
    [InterceptedController, 'InterceptedController.read has interceptors'],
    [PipedController, 'PipedController.read has pipes'],
    [ParamPipedController, 'ParamPipedController.read has pipes'],
  ])('refuses to start with %p', async (controller, problem) => {
    await expect(start(controller)).rejects.toThrow(problem);
  });
});
