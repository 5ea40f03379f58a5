import { Browser } from 'playwright-core';
import { launchChromium } from '../../support/chromium';
import { appRoutes } from '../../support/app-routes';
import { TestApp, bootTestApp } from '../../support/test-app';

const PORT = 3231;

describe('Swagger UI (/api/docs) in headless Chromium', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    t = await bootTestApp();
    await t.app.listen(PORT, '127.0.0.1');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('lists every endpoint, with the bearer scheme, and breaks no security policy', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    // Nothing may leave the machine: every request goes to our own server.
    await page.route(/^(?!http:\/\/127\.0\.0\.1:3231\/)/, (route) => route.abort());

    const response = await page.goto(`http://127.0.0.1:${PORT}/api/docs`);
    expect(response?.status()).toBe(200);
    await page.waitForSelector('.opblock', { timeout: 30000 });

    const listed = await page.$$eval('.opblock', (blocks) =>
      blocks.map((block) => {
        const method = block.querySelector('.opblock-summary-method')?.textContent ?? '';
        const path = block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
        return `${method.trim().toUpperCase()} ${path.replace(/\u200b/g, '')}`;
      }),
    );
    const expected = appRoutes(t.app).map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(listed.sort()).toEqual(expected.sort());

    expect(await page.locator('.btn.authorize').count()).toBe(1);
    expect(await page.locator('.info .title').innerText()).toContain('COVID-19 and MPOX data API');
    expect(problems).toEqual([]);
    await page.close();
  });
});
