/*
 * Client names match ignoring case: `Partner` and `PARTNER` are one client, with one spelling,
 * one rate-limit budget and one actor in the history, whether its tokens come from API_TOKENS or
 * the database, and once tokens stored under two spellings are migrated.
 */
import { createHash } from 'node:crypto';
import { OneSpellingPerClient1765410000000 } from '@app/database/migrations/1765410000000-one-spelling-per-client';
import { TokenService } from '@api/auth/token.service';
import { recordBody } from '../../support/fixtures';
import { DEFAULT_API_TOKENS, TestApp, bootTestApp } from '../../support/test-app';

const STATIC = ['partner-token-one-0123', 'partner-token-two-0123'];
const STORED = ['stored-token-one-0123', 'stored-token-two-0123'];
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('client names ignoring case', () => {
  let t: TestApp;
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const actorsOf = async (token: string, date: string) => {
    const res = await t.http
      .post('/api/covid/data')
      .set(bearer(token))
      .send(recordBody({ country: 'Casefold', date }));
    expect(res.status).toBe(201);
    const history = await t.http.get(`/api/covid/data/${res.body.id}/history`).set(t.auth());
    return (history.body as { actor: string }[]).map((revision) => revision.actor);
  };

  beforeAll(async () => {
    t = await bootTestApp({
      API_TOKENS:
        `${DEFAULT_API_TOKENS},Partner:${STATIC[0]}:3/60,PARTNER:${STATIC[1]}:3/60,` +
        `Stored:${'static-stored-token-0123'}`,
    });
  });
  afterAll(() => t.close());

  it('gives API_TOKENS entries of one client its first spelling and one budget', async () => {
    expect(await actorsOf(STATIC[0], '2021-01-01')).toEqual(['Partner']);
    expect(await actorsOf(STATIC[1], '2021-01-02')).toEqual(['Partner']);
    // Two requests spent; one left between both tokens.
    expect((await t.http.get('/api/covid/data').set(bearer(STATIC[1]))).status).toBe(200);
    expect((await t.http.get('/api/covid/data').set(bearer(STATIC[0]))).status).toBe(429);
  });

  it('migrates tokens and actors stored under two spellings to the oldest one', async () => {
    const { dataSource } = t;
    const insert = `INSERT INTO api_tokens (client, token_hash, prefix, created_at, revision, scopes)
      VALUES (?, ?, ?, ?, ?, 'covid:read,covid:write')`;
    await dataSource.query(insert, ['sTORED', sha256(STORED[0]), 'stored-one', 1000, 1]);
    await dataSource.query(insert, ['STORED', sha256(STORED[1]), 'stored-two', 2000, 2]);
    await t.app.get(TokenService).refresh();
    // Before the migration, requests already go by the database's oldest spelling, which wins
    // over API_TOKENS' `Stored`.
    expect(await actorsOf(STORED[1], '2021-02-01')).toEqual(['sTORED']);
    expect(await actorsOf('static-stored-token-0123', '2021-02-02')).toEqual(['sTORED']);
    await dataSource.query(
      `UPDATE covid_revisions SET actor = 'STORED' WHERE date = '2021-02-01' AND country = 'Casefold'`,
    );

    const runner = dataSource.createQueryRunner();
    try {
      await new OneSpellingPerClient1765410000000().up(runner);
    } finally {
      await runner.release();
    }
    const clients = await dataSource.query<{ client: string }[]>(
      "SELECT client FROM api_tokens WHERE prefix LIKE 'stored-%' ORDER BY id",
    );
    expect(clients.map((row) => row.client)).toEqual(['sTORED', 'sTORED']);
    const actors = await dataSource.query<{ actor: string }[]>(
      "SELECT actor FROM covid_revisions WHERE country = 'Casefold' AND date >= '2021-02-01' ORDER BY id",
    );
    expect(actors.map((row) => row.actor)).toEqual(['sTORED', 'sTORED']);
  });
});
