import { ConfigValidationError, SCOPES, parseApiTokens } from './index';

describe('API_TOKENS scope lists', () => {
  it('gives an entry without a scope list every scope (its rights before scopes existed)', () => {
    expect(parseApiTokens('dashboard:abcdefgh12345678, admin:ijklmnop12345678:100/60')).toEqual([
      { client: 'dashboard', token: 'abcdefgh12345678', scopes: [...SCOPES] },
      {
        client: 'admin',
        token: 'ijklmnop12345678',
        budget: { limit: 100, windowSeconds: 60 },
        scopes: [...SCOPES],
      },
    ]);
  });

  it('reads a scope list after the token or the budget, in any order, without repeats', () => {
    expect(
      parseApiTokens(
        'browser:abcdefgh12345678:scopes=mpox:read+covid:read,' +
          'feeder:ijklmnop12345678:1000/1m:scopes=covid:write + mpox:write+covid:write',
      ),
    ).toEqual([
      { client: 'browser', token: 'abcdefgh12345678', scopes: ['covid:read', 'mpox:read'] },
      {
        client: 'feeder',
        token: 'ijklmnop12345678',
        budget: { limit: 1000, windowSeconds: 60 },
        scopes: ['covid:write', 'mpox:write'],
      },
    ]);
  });

  it.each([
    ['a:abcdefgh12345678:scopes=covid:admin', 'API_TOKENS: unknown scope "covid:admin" for "a"'],
    ['a:abcdefgh12345678:scopes=', 'API_TOKENS: unknown scope "" for "a"'],
    [
      'a:abcdefgh12345678:scopes=covid:read,covid:write',
      'API_TOKENS: the token of "covid" must be at least 8 characters',
    ],
  ])('refuses %p', (value, problem) => {
    let problems: string[] = [];
    try {
      parseApiTokens(value);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigValidationError);
      problems = (error as ConfigValidationError).problems;
    }
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(problem);
  });
});
