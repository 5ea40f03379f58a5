import { InputMemo } from './input-memo';

const SCOPE = {};
const OTHER_SCOPE = {};

describe('InputMemo', () => {
  it('works out each input of a scope once; another scope is worked out apart', () => {
    const compute = jest.fn((input: string) => input.length);
    const memo = new InputMemo<number>(10);
    const values = ['*/*', '*/*', 'text/csv', '*/*'].map((input) => memo.of(SCOPE, input, compute));
    expect(values).toEqual([3, 3, 8, 3]);
    expect(memo.of(OTHER_SCOPE, '*/*', () => 0)).toBe(0);
    expect(compute.mock.calls).toEqual([['*/*'], ['text/csv']]);
    expect(memo.get(SCOPE, '*/*')).toBe(3);
    expect(memo.get(SCOPE, 'text/html')).toBeUndefined();
  });

  it("forgets a scope's inputs at once past its bound, not another scope's", () => {
    const compute = jest.fn((input: string) => input.toUpperCase());
    const memo = new InputMemo<string>(2);
    memo.set(OTHER_SCOPE, 'kept', 'KEPT');
    for (const input of ['a', 'b', 'c', 'a']) memo.of(SCOPE, input, compute);
    // `c` cleared `a` and `b`: `a` is worked out a second time, `c` is still held.
    expect(compute.mock.calls.map(([input]) => input)).toEqual(['a', 'b', 'c', 'a']);
    memo.of(SCOPE, 'c', compute);
    expect(compute).toHaveBeenCalledTimes(4);
    expect(memo.get(OTHER_SCOPE, 'kept')).toBe('KEPT');
  });
});
