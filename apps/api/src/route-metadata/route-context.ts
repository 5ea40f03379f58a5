import { ExecutionContext, Type } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';

type Handler = (...args: never[]) => unknown;

/**
 * The `ExecutionContext` the global guards get for an answer served before Nest's router: that of
 * an HTTP request to the route that made the answer, as Nest would build it.
 */
export class RouteContext implements ExecutionContext {
  private readonly args: [FastifyRequest, FastifyReply, undefined];

  constructor(
    readonly request: FastifyRequest,
    readonly reply: FastifyReply,
    private readonly classRef: Type<unknown>,
    private readonly handler: Handler,
  ) {
    this.args = [request, reply, undefined];
  }

  getClass<T = unknown>(): Type<T> {
    return this.classRef as Type<T>;
  }

  getHandler(): Handler {
    return this.handler;
  }

  getArgs<T extends unknown[] = unknown[]>(): T {
    return this.args as unknown as T;
  }

  getArgByIndex<T = unknown>(index: number): T {
    return this.args[index] as T;
  }

  getType<T extends string = 'http'>(): T {
    return 'http' as T;
  }

  switchToHttp(): ReturnType<ExecutionContext['switchToHttp']> {
    return {
      getRequest: <T>() => this.request as T,
      getResponse: <T>() => this.reply as T,
      getNext: <T>() => undefined as T,
    };
  }

  // As Nest's own context: the same arguments, under the other transports' names.
  switchToRpc(): ReturnType<ExecutionContext['switchToRpc']> {
    return { getData: <T>() => this.request as T, getContext: <T>() => this.reply as T };
  }

  switchToWs(): ReturnType<ExecutionContext['switchToWs']> {
    return {
      getClient: <T>() => this.request as T,
      getData: <T>() => this.reply as T,
      getPattern: () => '',
    };
  }
}
