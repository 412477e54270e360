import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { at, browserSession } from './browser';

// Route-level code splitting: a page's chunk that cannot be fetched (as after a
// deploy) is asked for again in the page, then reloads the app once, then shows the
// route's error card with a way out.
// Run `npm run build:client` first.

let server: TestServer;
const session = browserSession(() => server.url);

beforeAll(async () => {
  server = await startTestServer();
  await session.launch();
});

afterEach(session.assertNoPageErrors);

afterAll(async () => {
  await session.close();
  await stopTestServer(server);
});

describe('lazy pages', () => {
  it(
    'load their chunk on first visit, reload once when it is gone, then offer to try again or go home',
    { timeout: 60_000 },
    async () => {
      const page = await session.newPage();
      const faqChunks: string[] = [];
      page.on('request', (r) => {
        if (/\/assets\/Faq-[\w-]+\.js$/.test(r.url())) faqChunks.push(r.url());
      });
      await page.goto('/');
      await page.getByRole('heading', { level: 1 }).waitFor();
      // The FAQ's code is not part of the landing page.
      expect(faqChunks).toEqual([]);

      // The chunk disappears (a new build was deployed): the page asks for it again twice
      // (a dropped request would load), reloads once, asks three times more, then the
      // error card shows inside the site layout.
      await page.route(/\/assets\/Faq-[\w-]+\.js$/, (route) => route.abort());
      let documentLoads = 0;
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) documentLoads++;
      });
      const reloaded = page.waitForEvent('load');
      await page.getByRole('navigation').getByRole('link', { name: 'FAQ' }).first().click();
      await reloaded;
      const card = page.getByRole('alert').filter({ hasText: 'This page could not be loaded' });
      await card.waitFor();
      expect(documentLoads).toBe(2); // the client-side move to /faq, then the one reload
      expect(faqChunks.length).toBe(6);
      await page.getByRole('link', { name: 'Pricing' }).first().waitFor(); // the layout stayed
      expect(await page.title()).toBe('FAQ · Nodekeep');

      // The chunk is back: "Try again" loads the page.
      await page.unroute(/\/assets\/Faq-[\w-]+\.js$/);
      await card.getByRole('button', { name: 'Try again' }).click();
      await page.getByRole('heading', { level: 1, name: 'Frequently asked questions' }).waitFor();
      expect(await page.evaluate(() => sessionStorage.getItem('nodekeep.chunkReload'))).toBeNull();

      // And "Go to the home page" leads home from the error card.
      await page.route(/\/assets\/Pricing-[\w-]+\.js$/, (route) => route.abort());
      await page.getByRole('navigation').getByRole('link', { name: 'Pricing' }).first().click();
      const pricingCard = page.getByRole('alert').filter({ hasText: 'This page could not be loaded' });
      await pricingCard.waitFor();
      await pricingCard.getByRole('link', { name: 'Go to the home page' }).click();
      await at(page, '/');
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.context().close();
    },
  );

  it(
    'show a page that throws as an error card in its layout, with Try again and a way home',
    { timeout: 60_000 },
    async () => {
      const page = await session.newPage();
      // The FAQ's module replaced by one whose page throws while a flag is set.
      await page.route(/\/assets\/Faq-[\w-]+\.js$/, (route) =>
        route.fulfill({
          contentType: 'text/javascript',
          body: "export function Faq() { if (window.faqBroken) throw new Error('broken page'); return 'The FAQ is back'; }",
        }),
      );
      await page.goto('/');
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.evaluate(() => ((window as unknown as { faqBroken: boolean }).faqBroken = true));
      let documentLoads = 0;
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) documentLoads++;
      });
      await page.getByRole('navigation').getByRole('link', { name: 'FAQ' }).first().click();
      const card = page.getByRole('alert').filter({ hasText: 'Something went wrong on this page' });
      await card.waitFor();
      expect(documentLoads).toBe(1); // only the client-side move: a render error does not reload
      await page.getByRole('link', { name: 'Pricing' }).first().waitFor(); // the layout stayed

      await page.evaluate(() => ((window as unknown as { faqBroken: boolean }).faqBroken = false));
      await card.getByRole('button', { name: 'Try again' }).click();
      await page.getByText('The FAQ is back').waitFor();
      expect(documentLoads).toBe(1);

      await page.evaluate(() => ((window as unknown as { faqBroken: boolean }).faqBroken = true));
      await page.getByRole('navigation').getByRole('link', { name: 'Pricing' }).first().click();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.getByRole('navigation').getByRole('link', { name: 'FAQ' }).first().click();
      await card.getByRole('link', { name: 'Go to the home page' }).click();
      await at(page, '/');
      await page.context().close();
    },
  );
});
