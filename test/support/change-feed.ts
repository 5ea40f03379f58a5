import { TestApp } from './test-app';

/** A change as the feed lists it. */
export interface FeedChange {
  actor: string;
  change: string;
  id: number;
  record: Record<string, unknown> | null;
}

/** Every change of `key`'s feed since `since` (ISO), page after page (10,000 per page). */
export async function changesSince(t: TestApp, key: string, since: string): Promise<FeedChange[]> {
  const changes: FeedChange[] = [];
  let query = `since=${since}`;
  for (;;) {
    const page = await t.http.get(`/api/${key}/changes?${query}&limit=10000`).set(t.auth());
    expect(page.status).toBe(200);
    const body = page.body as { changes: FeedChange[]; next: string | null };
    changes.push(...body.changes);
    if (body.next === null || body.changes.length === 0) return changes;
    query = `after=${body.next}`;
  }
}
