import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium';
import { TestApp } from './test-app';

/* What the dashboard's browser tests share: opening a watched page, and checking what it drew. */

/** Screenshots and figures of the browser tests: test-output/dashboard/<database>/. */
export const OUTPUT = join(
  __dirname,
  '../..',
  'test-output',
  'dashboard',
  process.env.DB_TYPE ?? 'sqlite',
);
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 740 };
/** The sizes of issue 52's review: a wide desktop, and a phone used by touch. */
export const WIDE = { width: 1400, height: 1000 };
export const PHONE_390 = { width: 390, height: 844 };

/** The API listening on a loopback port for the browser, and the browser (closed by the caller). */
export async function serveToBrowser(t: TestApp, port: number): Promise<Browser> {
  await t.app.listen(port, '127.0.0.1');
  mkdirSync(OUTPUT, { recursive: true });
  return launchChromium();
}

export interface Watched {
  page: Page;
  /** Console errors, page errors, failed requests and answers >= 400. */
  problems: string[];
}

/** A page watched for problems; `touch`: a phone's touch screen (taps, no hover). */
export async function open(
  browser: Browser,
  url: string,
  viewport = DESKTOP,
  { touch = false } = {},
): Promise<Watched> {
  const page = await browser.newPage({
    viewport,
    timezoneId: 'UTC',
    ...(touch ? { hasTouch: true, isMobile: true } : {}),
  });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
  });
  // Nothing may leave the machine: every request goes to our own server.
  await page.route(/^(?!http:\/\/127\.0\.0\.1:32\d\d\/)/, (route) => route.abort());
  const response = await page.goto(url);
  expect(response?.status()).toBe(200);
  return { page, problems };
}

/** Non-transparent pixels of each canvas under `selector` (uPlot draws on one per chart). */
export function paintedPixels(page: Page, selector: string): Promise<number[]> {
  return page.$$eval(`${selector} canvas`, (canvases) =>
    (canvases as HTMLCanvasElement[]).map((canvas) => {
      const context = canvas.getContext('2d');
      if (!context) return 0;
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      let painted = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
      return painted;
    }),
  );
}

/** The page's visible text holds no `NaN` and no `undefined`. */
export async function expectCleanText(page: Page): Promise<void> {
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(/NaN|undefined/);
}
