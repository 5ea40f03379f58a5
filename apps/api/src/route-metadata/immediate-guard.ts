import { CanActivate, ExecutionContext } from '@nestjs/common';

/**
 * A guard that can usually decide without a promise. `canActivateNow` answers as `canActivate`
 * would (true, false, or a thrown refusal), or undefined when only `canActivate` can decide; then
 * it must have done nothing (counted nothing, set no header), since `canActivate` runs next.
 * Nest always calls `canActivate`; the answers served before Nest's router
 * (`serveCachedResponses`) ask this first, so that they finish without an await. Kept because that
 * await costs the cached routes a few points of their share of the baseline (`bench:compare`).
 */
export interface ImmediateGuard extends CanActivate {
  canActivateNow(context: ExecutionContext): boolean | undefined;
}

export function isImmediateGuard(guard: CanActivate): guard is ImmediateGuard {
  return typeof (guard as Partial<ImmediateGuard>).canActivateNow === 'function';
}
