import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { at, liveSubscribed } from './browser';

// The walk (issue 24, "Done when"): what every walk file does on each page a customer
// visits. The walk files share these so each family is walked the same way.

/**
 * What a customer must never read: a `{word}` or `<word>` slot, or a value the page
 * rendered from nothing. Matched on the text the customer sees (innerText, so hidden
 * elements and attributes are not read).
 */
const LEFTOVER = /\{[A-Za-z_][\w .-]{0,40}\}|<[A-Za-z][\w .-]{0,40}>|\bundefined\b|\bNaN\b|\bnull\b/g;

/** Fails with the page's address and every leftover found on it. */
export async function expectNoLeftover(page: Page, where: string) {
  const text = await page.evaluate(() => document.body.innerText);
  expect(text.match(LEFTOVER) ?? [], `${where} (${page.url()})`).toEqual([]);
}

export const txid = () => randomBytes(32).toString('hex');

/** The simulator's admin API (the demo's stand-in for the owner's wallet and the chain). */
export async function simAdmin(dataDir: string, method: string, p: string) {
  const port = fs.readFileSync(path.join(dataDir, 'fleet', 'local', '_simulator', 'port'), 'utf8').trim();
  const res = await fetch(`http://127.0.0.1:${port}/admin${p}`, { method });
  expect(res.status, p).toBeLessThan(300);
}

export function walker(page: Page) {
  const button = (name: string) => page.getByRole('button', { name, exact: true });
  const input = (label: string) => page.getByLabel(label, { exact: true });
  const status = () => page.getByTestId('node-status');
  const counter = () => page.locator('.guide-counter');

  /**
   * The coin's deploy page with the Beginner guide, every step read (no leftover on any),
   * `fill` run on the step it names (1-based; the last step is the deploy form's), then
   * Deploy: the server's answer. `advance` replaces Next on a step that moves on by its own
   * button (SIN's Check burn); `deployStep` is where Deploy is, when a step follows it (the
   * validators' results).
   */
  async function deployThrough(
    coin: string,
    fills: Record<number, () => Promise<void>>,
    opts: { steps: number; deployStep?: number; advance?: Record<number, () => Promise<void>> },
  ): Promise<{ server_id: string; server_ids: string[] }> {
    const subscribed = liveSubscribed(page);
    await page.goto(`/dashboard/deploy?coin=${coin}`);
    await subscribed;
    await button("Let's start").waitFor();
    await expectNoLeftover(page, `${coin}: deploy page`);
    await button("Let's start").click();
    const last = opts.deployStep ?? opts.steps;
    for (let step = 1; step <= last; step++) {
      await page.getByText(`Step ${step} of ${opts.steps}`, { exact: true }).waitFor();
      expect(await counter().textContent()).toBe(`Step ${step} of ${opts.steps}`);
      await fills[step]?.();
      await expectNoLeftover(page, `${coin}: step ${step}`);
      if (step === last) break;
      const advance = opts.advance?.[step];
      if (advance) await advance();
      else await button('Next').click();
    }
    const answer = page.waitForResponse(
      (r) => r.url().includes('deploy.deploy_server') || r.url().includes('deploy.deploy_validators'),
    );
    await button('Deploy').click();
    const body = (await (await answer).json()) as [
      { result?: { data: { server_id: string; server_ids: string[] } }; error?: { message: string } },
    ];
    expect(body[0].error?.message, coin).toBeUndefined();
    await page.getByRole('heading', { name: 'Setup completed!' }).waitFor({ timeout: 30_000 });
    await expectNoLeftover(page, `${coin}: deployed`);
    return body[0].result!.data;
  }

  /** The node page; its Overview read until the status badge says `label`, then each tab. */
  async function nodePage(mnId: string, label: string | RegExp, coin: string) {
    await page.goto(`/dashboard/masternode/${mnId}`);
    await at(page, `/dashboard/masternode/${mnId}`);
    await expect.poll(() => status().textContent(), { timeout: 60_000 }).toMatch(label);
    await page.getByRole('region', { name: 'Rewards' }).waitFor();
    await expectNoLeftover(page, `${coin}: node page`);
    // A simulated node earns nothing, and says so wherever a reward would show.
    expect(await page.locator('.stat', { hasText: 'Earnings' }).locator('.stat-value').textContent(), coin).toBe(
      'None (simulated)',
    );
    await page
      .getByRole('region', { name: 'Rewards' })
      .getByText('No rewards: this node is simulated, and simulated nodes earn none.', { exact: true })
      .waitFor();
    await configTab(coin);
  }

  async function configTab(coin: string) {
    await page.getByRole('tab', { name: 'Configuration' }).click();
    // The family's view is drawn once the node's setup has come: read it, not the wait.
    await page.locator('.node-panel .config-view').first().waitFor();
    await expectNoLeftover(page, `${coin}: configuration tab`);
  }

  return { button, input, status, deployThrough, nodePage, configTab };
}
