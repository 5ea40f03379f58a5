import { Type } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';

export type Handler = (...args: never[]) => unknown;

/** A method of a controller (inherited ones included), as the start-up checks inspect them. */
export interface ControllerMethod {
  classRef: Type<unknown>;
  name: string;
  handler: Handler;
}

/** Every method of every controller of the application. */
export function controllerMethods(
  discovery: DiscoveryService,
  scanner: MetadataScanner,
): ControllerMethod[] {
  return discovery.getControllers().flatMap(({ metatype }) => {
    if (typeof metatype !== 'function') return [];
    const classRef = metatype as Type<unknown>;
    const prototype = classRef.prototype as Record<string, Handler>;
    return scanner
      .getAllMethodNames(prototype)
      .map((name) => ({ classRef, name, handler: prototype[name] }));
  });
}
