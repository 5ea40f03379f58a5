import { TestApp, bootTestApp } from './support/test-app';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  it('serves the public latest records', async () => {
    const res = await t.http.get('/api/covid/public/latest');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });
});
