import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The browser tier's one Chromium (test/e2e/browser.ts connects to it). */
    chromiumWsEndpoint: string;
  }
}

/**
 * The browser tier's global setup: one Chromium for the whole run, which every test file
 * connects to with contexts of its own (no cookies or storage shared), instead of a
 * Chromium started and stopped per file (about a second of two cores each, 44 times).
 */
export default async function setup(project: TestProject) {
  const server = await chromium.launchServer({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    host: '127.0.0.1',
  });
  project.provide('chromiumWsEndpoint', server.wsEndpoint());
  return () => server.close();
}
