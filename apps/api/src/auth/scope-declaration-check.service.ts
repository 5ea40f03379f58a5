import { Injectable, OnModuleInit, Type } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { Handler, controllerMethods } from '../common/controller-methods';
import { IS_PUBLIC_KEY } from './public.decorator';
import { REQUIRED_SCOPES_KEY } from './require-scope.decorator';

/**
 * Refuses to start when a route declares neither `@Public()` nor `@RequireScope()`: a route added
 * later cannot be left open to every token by mistake (the guard would deny it anyway).
 */
@Injectable()
export class ScopeDeclarationCheck implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    const undeclared = controllerMethods(this.discovery, this.scanner)
      .filter(({ classRef, handler }) => this.undeclared(classRef, handler))
      .map(({ classRef, name }) => `${classRef.name}.${name}`);
    if (undeclared.length > 0) {
      throw new Error(
        `Routes without @Public() or @RequireScope(): ${undeclared.join(', ')}. Declare who ` +
          'may call each one.',
      );
    }
  }

  private undeclared(classRef: Type<unknown>, handler: Handler): boolean {
    if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) return false;
    const targets = [handler, classRef];
    return (
      this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, targets) !== true &&
      this.reflector.getAllAndOverride<unknown[]>(REQUIRED_SCOPES_KEY, targets) === undefined
    );
  }
}
