import { TOKENS, TestApp } from './test-app';

/**
 * Record writes as a given client and reads of a record's history, for the history and revert
 * tests. `app`: the test's API, booted in its `beforeAll`.
 */
export function recordClient(app: () => TestApp) {
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });
  const history = async (id: number, series: string) =>
    (await app().http.get(`/api/${series}/data/${id}/history`).set(as(TOKENS.alice))).body as {
      actor: string;
      change: string;
      record: unknown;
    }[];
  return {
    as,
    /** A write that must succeed; answers the body (a new record's id). */
    async write(
      token: string,
      method: 'post' | 'put' | 'delete',
      path: string,
      body?: object,
      series = 'covid',
    ): Promise<{ id?: number }> {
      const res = await app().http[method](`/api/${series}/data${path}`).set(as(token)).send(body);
      expect(res.status).toBeLessThan(300);
      return res.body as { id?: number };
    },
    /** The record as its last revision left it (null: deleted). */
    async latest(id: number, series = 'covid'): Promise<unknown> {
      const revisions = await history(id, series);
      return revisions[revisions.length - 1].record;
    },
    /** Its revisions as `<actor> <change>`, oldest first. */
    async changes(id: number, series = 'covid'): Promise<string[]> {
      return (await history(id, series)).map((r) => `${r.actor} ${r.change}`);
    },
  };
}
