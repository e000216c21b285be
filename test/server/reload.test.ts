/**
 * The host takes up a new build on SIGHUP without dropping requests, and `npm start` does not serve a build
 * made for another address than SITE_URL.
 */
import { cpSync, existsSync, linkSync, lstatSync, mkdtempSync, readFileSync, readlinkSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { buildSite, copyOfBuild, removeBuild } from '../helpers/build.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const cleanup: Array<() => unknown> = [];
afterAll(async () => {
  for (const undo of cleanup.reverse()) await undo();
});

/** A copy of the sample build at the path buildSite({ name }) writes to, so a rebuild replaces it in place. */
function copyOfSampleBuild(name: string): string {
  const dir = copyOfBuild(inject('distDir'), name);
  cleanup.push(() => removeBuild(dir));
  return dir;
}

describe('SIGHUP', () => {
  it('serves a rebuilt DIST_DIR after SIGHUP, answering every request 200 throughout', async () => {
    const distDir = copyOfSampleBuild('reload');
    const server = await startServer({ distDir, env: { RATE_LIMIT_MAX: '1000000' } });
    cleanup.push(() => server.stop());
    const title = async () => ((await (await fetch(`${server.url}/episodes.json`)).json()) as Array<{ id: number; title: string }>)[0]!.title;
    const before = await title();

    // Requests all the way through the rebuild and the swap.
    const statuses = new Map<number, number>();
    let running = true;
    const paths = ['/episodes.json', '/rss.xml', '/', '/api/search?q=sourdough', '/transcripts/001-sourdough.vtt'];
    const load = Promise.all(
      Array.from({ length: 4 }, async (_, worker) => {
        for (let i = worker; running; i++) {
          const res = await fetch(`${server.url}${paths[i % paths.length]}`);
          await res.arrayBuffer();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
      }),
    );

    // The same content with the first episode renamed, built into the folder being served.
    const content = mkdtempSync(join(tmpdir(), 'reload-content-'));
    cleanup.push(() => rmSync(content, { recursive: true, force: true }));
    cpSync(join(ROOT, 'content'), content, { recursive: true });
    const episodeFile = join(content, 'episodes/001-sourdough.md');
    writeFileSync(episodeFile, readFileSync(episodeFile, 'utf8').replace(/^title: .*$/m, 'title: "Sourdough, rebuilt"'));
    await buildSite({ name: 'reload', env: { CONTENT_DIR: content }, inPlace: true });
    // The running server still answers from the build it loaded, though the build moved that build's files aside,
    // removed them and wrote its own (src/integration/replace-out-dir.ts).
    expect(await title()).toBe(before);

    server.process.kill('SIGHUP');
    const deadline = Date.now() + 10_000;
    while ((await title()) === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await title()).toBe('Sourdough, rebuilt');
    expect(await (await fetch(`${server.url}/rss.xml`)).text()).toContain('Sourdough, rebuilt');
    expect(await (await fetch(`${server.url}/episodes/001-sourdough/`)).text()).toContain('Sourdough, rebuilt');
    await new Promise((r) => setTimeout(r, 300));
    running = false;
    await load;

    expect([...statuses.keys()]).toEqual([200]);
    expect(statuses.get(200)).toBeGreaterThan(50);
    expect(server.logs).toContainEqual(expect.objectContaining({ msg: 'reloaded', reason: 'SIGHUP' }));
    expect(server.process.exitCode).toBeNull();
  }, 120_000);
});

describe('SIGHUP while starting', () => {
  it('is kept, not the end of the process, and the build is taken up again once listening', async () => {
    // The service is held before it listens: its manifest is a FIFO, whose read waits for the test to write it.
    const distDir = copyOfSampleBuild('hup-starting');
    const manifest = join(distDir, 'client', '_manifest.json');
    const fifo = join(distDir, 'manifest.fifo');
    const text = readFileSync(manifest);
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    rmSync(manifest);
    linkSync(fifo, manifest);
    const child = spawn(process.execPath, [join(ROOT, 'hosts/node/main.ts')], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DIST_DIR: distDir, SIGNING_KEY: '', SIGNING_SECRET: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanup.push(() => child.exitCode === null && child.kill('SIGKILL'));
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    const messages: string[] = [];
    const seen = (wanted: RegExp) =>
      new Promise<void>((done, fail) => {
        for (const stream of [child.stdout, child.stderr]) {
          createInterface({ input: stream }).on('line', (line) => {
            messages.push(line);
            if (wanted.test(line)) done();
          });
        }
        void exited.then((code) => fail(new Error(`exited (${code}) before ${wanted}:\n${messages.join('\n')}`)));
      });
    // Taken up while starting or just after it listens (whichever the signal reaches first): either way, once.
    const reloaded = seen(/"msg":"reloaded"/);
    // Opening a FIFO to write completes once its reader has opened it: the service, reading its build, not listening.
    const writer = await open(fifo, 'w');
    child.kill('SIGHUP');
    // The manifest for the reload is a file again; the start reads what the test writes into the FIFO.
    writeFileSync(join(distDir, 'manifest.tmp'), text);
    renameSync(join(distDir, 'manifest.tmp'), manifest);
    await writer.writeFile(text);
    await writer.close();
    await reloaded;
    expect(messages.some((m) => m.includes('"msg":"listening"'))).toBe(true);
    expect(messages.filter((m) => m.includes('"msg":"reloaded"'))).toHaveLength(1);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('npm start and SITE_URL', () => {
  it('rebuilds when SITE_URL differs from the address the build was made for', async () => {
    const distDir = copyOfSampleBuild('siteurl');
    const server = await startServer({ distDir, env: { SITE_URL: 'https://pod.example.org/', RATE_LIMIT_MAX: '100000' } });
    cleanup.push(() => server.stop());
    expect(server.logs).toContainEqual(
      expect.objectContaining({ msg: 'the build is for http://localhost:4321 but SITE_URL is https://pod.example.org; building first' }),
    );
    const rss = await (await fetch(`${server.url}/rss.xml`)).text();
    expect(rss).toContain('<link>https://pod.example.org/</link>');
    expect(rss).not.toContain('http://localhost:4321');
  }, 120_000);

  /** npm start's server, expected to stop before it listens: its exit code and what it printed. */
  const startRefused = (env: Record<string, string>) => {
    const run = spawnSync(process.execPath, [join(ROOT, 'hosts/node/main.ts')], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.stderr).not.toMatch(/\n\s+at /);
    return run;
  };

  it('refuses, with one clear message, when there is no content to rebuild from', () => {
    const distDir = copyOfSampleBuild('siteurl-refuse');
    const run = startRefused({ DIST_DIR: distDir, SITE_URL: 'https://pod.example.org', CONTENT_DIR: join(distDir, 'no-content') });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      'the build is for http://localhost:4321 but SITE_URL is https://pod.example.org, and there is no content/ here to rebuild it from',
    );
  });

  it('a tip setting the build was not made with is not served as if it were (donations went to the placeholder)', () => {
    const distDir = copyOfSampleBuild('tips-refuse');
    const wallet = '0x1111111111111111111111111111111111111111';
    const run = startRefused({ DIST_DIR: distDir, TIP_WALLET_ADDRESS: wallet, CONTENT_DIR: join(distDir, 'no-content') });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`the build's tip walletAddress is 0x0000000000000000000000000000000000000000 but TIP_WALLET_ADDRESS is ${wallet}, and there is no content/ here to rebuild it from`);
    // The values it was built with are served as they are.
    const same = startRefused({ DIST_DIR: distDir, TIP_NETWORK: 'base-sepolia', CONTENT_DIR: join(distDir, 'no-content'), HOST: 'no-such-host.invalid' });
    expect(same.stderr).toContain('cannot listen on HOST=no-such-host.invalid');
  });

  it('a build says, outside what it publishes, which content it was made from', () => {
    const distDir = inject('distDir');
    expect(JSON.parse(readFileSync(join(distDir, 'build-source.json'), 'utf8'))).toEqual({ contentDir: join(ROOT, 'content') });
    expect(existsSync(join(distDir, 'client', 'build-source.json'))).toBe(false);
  });

  // A build empties its output folder first: npm start must not turn a build of another show into the sample.
  it('refuses to rebuild a build that other content made, and leaves it as it is', () => {
    const distDir = copyOfSampleBuild('siteurl-other-show');
    const other = join(distDir, 'elsewhere', 'other-show', 'content');
    writeFileSync(join(distDir, 'build-source.json'), JSON.stringify({ contentDir: other }));
    const before = readFileSync(join(distDir, 'client', 'episodes.json'));
    const run = startRefused({ DIST_DIR: distDir, SITE_URL: 'https://pod.example.org' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`but ${distDir} holds a build of ${other}, and rebuilding would replace it with a build of ${join(ROOT, 'content')}`);
    expect(run.stderr).toContain(`start with CONTENT_DIR=${other}`);
    expect(readFileSync(join(distDir, 'client', 'episodes.json')).equals(before)).toBe(true);
  });

  it('refuses to rebuild a DIST_DIR build that does not say which content made it', () => {
    const distDir = copyOfSampleBuild('siteurl-unknown-source');
    rmSync(join(distDir, 'build-source.json'));
    const run = startRefused({ DIST_DIR: distDir, SITE_URL: 'https://pod.example.org' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`and ${distDir} does not say which content it was built from (no build-source.json)`);
    expect(existsSync(join(distDir, 'client', 'episodes.json'))).toBe(true);
  });

  it('refuses to build into a DIST_DIR that holds files but no build, and removes none of them', () => {
    const distDir = mkdtempSync(join(tmpdir(), 'not-a-build-'));
    cleanup.push(() => rmSync(distDir, { recursive: true, force: true }));
    writeFileSync(join(distDir, 'notes.txt'), 'mine');
    const run = startRefused({ DIST_DIR: distDir });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`no build output found in ${distDir} (DIST_DIR), which holds other files (notes.txt) that a build would remove`);
    expect(readFileSync(join(distDir, 'notes.txt'), 'utf8')).toBe('mine');
  });
});

// Astro's server and prerender bundles in the output folder import the project's packages: outside the project the
// build failed with "Cannot find package '@oslojs/encoding'" (src/integration/packages-link.ts).
describe('npm start with DIST_DIR outside the project', () => {
  it('builds there, serves it, and keeps the link to the packages that lets it', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'outside-project-'));
    cleanup.push(() => rmSync(outside, { recursive: true, force: true }));
    const distDir = join(outside, 'site');
    const server = await startServer({ distDir, env: { RATE_LIMIT_MAX: '100000' } });
    cleanup.push(() => server.stop());
    expect(server.logs).toContainEqual(expect.objectContaining({ msg: 'no build output found; building first' }));
    expect(server.logs).toContainEqual(expect.stringContaining(`is outside the project: linked the project's packages into it (node_modules)`));
    expect(lstatSync(join(distDir, 'node_modules')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(distDir, 'node_modules'))).toBe(join(ROOT, 'node_modules'));
    expect((await fetch(`${server.url}/episodes/001-sourdough/`)).status).toBe(200);
    // A path no page has reaches Astro's server entry, imported from that folder: a 404, and no warning.
    expect((await fetch(`${server.url}/no-such-page`)).status).toBe(404);
    expect(server.logs.filter((l) => typeof l === 'object' && l.level === 'warn' && String(l.msg).includes('Astro server handler'))).toEqual([]);
  }, 180_000);
});

describe('npm run preview:cloudflare, which also builds first', () => {
  it('refuses to build into a DIST_DIR that holds files but no build', () => {
    const distDir = mkdtempSync(join(tmpdir(), 'not-a-build-'));
    cleanup.push(() => rmSync(distDir, { recursive: true, force: true }));
    writeFileSync(join(distDir, 'notes.txt'), 'mine');
    const run = spawnSync(process.execPath, [join(ROOT, 'hosts/cloudflare/preview.ts')], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DIST_DIR: distDir },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`no build for the configured site URL in ${distDir} (DIST_DIR), which holds other files (notes.txt)`);
    expect(readFileSync(join(distDir, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('does not serve a build made with other tip settings, like npm start', () => {
    const distDir = copyOfSampleBuild('preview-tips');
    const run = spawnSync(process.execPath, [join(ROOT, 'hosts/cloudflare/preview.ts')], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DIST_DIR: distDir, TIP_URL: 'https://tips.example/pod', CONTENT_DIR: join(distDir, 'no-content') },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("the build's tip url is https://ko-fi.com/deepfield-example but TIP_URL is https://tips.example/pod, and there is no content/ here to rebuild it from");
  });
});
