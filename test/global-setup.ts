import type { TestProject } from 'vitest/node';
import { findChromium } from './helpers/chromium.js';

/** Finds (and if need be unpacks) Chromium once per run, so that parallel workers never unpack it at the same time. */
export default async function setup(project: TestProject): Promise<void> {
  project.provide('chromiumPath', await findChromium());
}
