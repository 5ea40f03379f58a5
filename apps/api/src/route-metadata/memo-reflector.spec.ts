import { SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { MemoReflector } from './memo-reflector';

class Shared {
  @SetMetadata('limit', 5)
  limited(): void {}

  plain(): void {}
}
class Other extends Shared {}

describe('MemoReflector', () => {
  afterEach(() => jest.restoreAllMocks());

  it('reads each value of a route once; a handler inherited by two controllers is two routes', () => {
    const read = jest.spyOn(Reflector.prototype, 'getAllAndOverride');
    const reflector = new MemoReflector();
    const handler = Shared.prototype.limited;
    for (let i = 0; i < 3; i++) {
      expect(reflector.getAllAndOverride('limit', [handler, Shared])).toBe(5);
    }
    expect(read).toHaveBeenCalledTimes(1);
    expect(reflector.getAllAndOverride('limit', [handler, Other])).toBe(5);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('tells whether any value it read of a route was set, once the route is settled', () => {
    const reflector = new MemoReflector();
    const { limited, plain } = Shared.prototype;
    reflector.getAllAndOverride('limit', [limited, Shared]);
    reflector.getAllAndOverride('limit', [plain, Shared]);
    expect(reflector.anyFound(limited, Shared)).toBeUndefined();
    reflector.settle(limited, Shared);
    reflector.settle(plain, Shared);
    reflector.settle(plain, Other);
    expect(reflector.anyFound(limited, Shared)).toBe(true);
    expect(reflector.anyFound(plain, Shared)).toBe(false);
    // Never read: nothing to tell.
    expect(reflector.anyFound(plain, Other)).toBeUndefined();
  });
});
