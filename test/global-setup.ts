/**
 * Builds the bundled sample podcast once per test run, into a folder of its own, for every integration test.
 * Unit tests do not need it; integration tests read its path with inject('distDir').
 */
import type { TestProject } from 'vitest/node';
import { buildSite, removeBuild } from './helpers/build.ts';

export default async function setup(project: TestProject) {
  // `UNIT=1 npx vitest run` runs the unit tests alone (vitest.config.ts) without building the site.
  if (process.env.UNIT === '1') return project.provide('distDir', '');
  const distDir = await buildSite({ name: 'sample' });
  project.provide('distDir', distDir);
  return () => removeBuild(distDir);
}

declare module 'vitest' {
  export interface ProvidedContext {
    distDir: string;
  }
}
