import { Browser, chromium } from 'playwright-core';

/** Debian's chromium (the pre-test step installs it when missing). */
const CHROMIUM = '/usr/bin/chromium';

/**
 * Headless Chromium as the browser tests need it: no sandbox (tests run as root), and none of the
 * background connections this closed network would refuse at every start.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
