/**
 * A real browser for dashboard tests: Debian's chromium (installed by scripts/setup.sh) driven by playwright-core,
 * one browser per suite, with a desktop (1280×800) and a phone (390×844) context. `look(page, name)` runs axe-core
 * on the page (no serious or critical violation allowed) and saves a screenshot at both sizes under
 * test-output/dashboard/ (gitignored).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { projectDirectory } from './server.ts';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
export const SCREENSHOT_DIRECTORY = join(projectDirectory, 'test-output', 'dashboard');
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export interface Browsing {
  browser: Browser;
  /** A fresh context (its own cookies) at desktop size. */
  newContext(): Promise<BrowserContext>;
  /** Accessibility check + screenshots at both sizes (the phone view loads the same URL in a phone context sharing the cookies). */
  look(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browsing> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--autoplay-policy=no-user-gesture-required'],
  });
  mkdirSync(SCREENSHOT_DIRECTORY, { recursive: true });
  const phones = new WeakMap<BrowserContext, Promise<{ context: BrowserContext; page: Page }>>();
  const phoneOf = (context: BrowserContext) => {
    let phone = phones.get(context);
    if (!phone) {
      phone = browser.newContext({ viewport: PHONE, deviceScaleFactor: 1, isMobile: true, hasTouch: true, timezoneId: 'Asia/Kolkata', locale: 'en-IN' }).then(async (phoneContext) => ({ context: phoneContext, page: await phoneContext.newPage() }));
      phones.set(context, phone);
    }
    return phone;
  };
  return {
    browser,
    // An operator in India: the browser's zone is the sign-in default.
    newContext: () => browser.newContext({ viewport: DESKTOP, deviceScaleFactor: 1, timezoneId: 'Asia/Kolkata', locale: 'en-IN' }),
    async look(page, name) {
      await assertAccessible(page, name);
      await page.screenshot({ path: join(SCREENSHOT_DIRECTORY, `${name}-1280x800.png`) });
      const phone = await phoneOf(page.context());
      await phone.context.clearCookies();
      await phone.context.addCookies(await page.context().cookies());
      await phone.page.goto(page.url());
      await phone.page.screenshot({ path: join(SCREENSHOT_DIRECTORY, `${name}-390x844.png`) });
    },
    close: () => browser.close(),
  };
}

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
}

/** axe-core on the page as it is now: serious and critical violations fail the test, with what and where. */
export async function assertAccessible(page: Page, name: string): Promise<void> {
  // Injected through the DevTools protocol (not a <script>): the page's CSP forbids inline script.
  const loaded = await page.evaluate('typeof window.axe');
  if (loaded !== 'object') await page.evaluate(AXE_SOURCE);
  const result = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as AxeResult;
  const bad = result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  if (bad.length) {
    const lines = bad.map((violation) => `${violation.impact} ${violation.id}: ${violation.help} at ${violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(', ')}`);
    throw new Error(`accessibility violations on ${name}:\n${lines.join('\n')}`);
  }
}
