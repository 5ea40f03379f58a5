import { SetMetadata } from '@nestjs/common';
import { Scope } from '@app/config';

export const THROTTLE_EXEMPT_SCOPE = 'throttleExemptScope';

/**
 * The rate limit does not count requests whose token holds `scope` (a scraper must never be
 * answered 429); every other caller of the route is counted as usual, so guessing tokens there is
 * limited like anywhere else.
 */
export const SkipThrottleFor = (scope: Scope): MethodDecorator & ClassDecorator =>
  SetMetadata(THROTTLE_EXEMPT_SCOPE, scope);
