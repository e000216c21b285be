import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/** The folder buildSite({ name }) builds into. */
function buildDir(name: string): string {
  return join(ROOT, '.test-build', `${name}-${process.pid}`);
}

/** A copy of the build in `from` at the folder buildSite({ name }) builds into, for a rebuild in place over it. */
export function copyOfBuild(from: string, name: string): string {
  const dir = buildDir(name);
  rmSync(dir, { recursive: true, force: true });
  cpSync(from, dir, { recursive: true });
  return dir;
}

/**
 * Runs the real `astro build` into .test-build/<name>-<pid> and resolves to that folder.
 * env lets a test build other content (CONTENT_DIR) or another site URL (SITE_URL); output collects Astro's log.
 * inPlace: build over what the folder holds, as an editor's next `npm run build` does (by default it is emptied first).
 */
export async function buildSite(options: { name: string; env?: Record<string, string>; output?: string[]; inPlace?: boolean }): Promise<string> {
  const outDir = buildDir(options.name);
  if (!options.inPlace) rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const output = options.output ?? [];
  const code = await new Promise<number | null>((done) => {
    const child = spawn(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], {
      cwd: ROOT,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', ASTRO_OUT_DIR: outDir, ASTRO_CACHE_DIR: `${outDir}-cache`, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d) => output.push(String(d)));
    child.stderr.on('data', (d) => output.push(String(d)));
    child.on('close', done);
  });
  if (code !== 0) throw new Error(`astro build failed (${code}):\n${output.join('')}`);
  return outDir;
}

/** Removes a build made by buildSite, and its cache. */
export function removeBuild(outDir: string): void {
  rmSync(outDir, { recursive: true, force: true });
  rmSync(`${outDir}-cache`, { recursive: true, force: true });
}

/** Every file of a build's client folder, by path, but those stamped with the time of the build. */
export function published(distDir: string): Map<string, Buffer> {
  const client = join(distDir, 'client');
  const stamped = /^\/(service\.json|_manifest\.json|\.well-known\/ai-catalog\.json|\.well-known\/discovery\/resources)(\.gz|\.br)?$/;
  const out = new Map<string, Buffer>();
  for (const entry of readdirSync(client, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const path = `/${relative(client, file)}`;
    if (!stamped.test(path)) out.set(path, readFileSync(file));
  }
  return out;
}
