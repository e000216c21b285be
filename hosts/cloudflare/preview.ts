/**
 * `npm run preview:cloudflare`: serves the Cloudflare build locally in workerd (`wrangler dev`, offline, no
 * account), honouring HOST, PORT and SITE_URL like `npm start`. Builds first when there is no build for this
 * SITE_URL and these tip settings. Settings and secrets (SIGNING_KEY, RATE_LIMIT_MAX, ...) are passed to the Worker as its vars.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildRefusal, builtForOtherSettings } from '../node/build-guard.ts';
import { uploadPlan, writeCloudflareConfig } from './build.ts';
import { assetLimitProblems } from './asset-plan.ts';
import { SERVICE_ENV_HELP, SERVICE_ENV_NAMES } from '../../functions/env.ts';
import { exitOnArgs } from '../node/config.ts';

const ROOT = resolve(import.meta.dirname, '../..');
exitOnArgs(
  'npm run preview:cloudflare',
  `Usage: npm run preview:cloudflare [-- --help]\n\nServes the Cloudflare build locally in workerd (builds first when there is none for SITE_URL).\n\n` +
    `Environment:\n  HOST, PORT     where to listen (default: localhost:4321)\n  DIST_DIR       the build (default: dist)\n` +
    // Not REDIS_URL (see PASSED below): the Worker's shared state is in Durable Objects.
    `${SERVICE_ENV_HELP.split('\n').filter((line) => !line.startsWith('  REDIS_URL')).join('\n')}`,
);
const env = process.env;
const distDir = resolve(env.DIST_DIR || 'dist');
const host = env.HOST || 'localhost';
const port = env.PORT || '4321';
const siteUrl = (env.SITE_URL || '').replace(/\/+$/, '');

const manifestFile = join(distDir, 'client', '_manifest.json');
const reason = existsSync(manifestFile) ? builtForOtherSettings(join(distDir, 'client'), env) : `no build for ${siteUrl || 'the configured site URL'}`;
if (reason) {
  const refused = buildRefusal(reason, { distDir, contentDir: env.CONTENT_DIR || 'content', named: Boolean(env.DIST_DIR), siteUrl: siteUrl || undefined });
  if (refused) {
    console.error(JSON.stringify({ level: 'error', msg: refused }));
    process.exit(1);
  }
  console.log(JSON.stringify({ level: 'info', msg: `${reason}; building first`, dir: distDir }));
  const built = spawnSync(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...env, ASTRO_TELEMETRY_DISABLED: '1', ASTRO_OUT_DIR: distDir },
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
// WORKERS_ASSET_MAX_BYTES lowers the assets layer's 25 MiB file limit (tests: the sample's files are small).
const config = writeCloudflareConfig(distDir, { maxAssetBytes: Number(env.WORKERS_ASSET_MAX_BYTES) || undefined });
// workerd serves any number of files locally; a deploy of the same build would meet these limits.
for (const problem of assetLimitProblems(uploadPlan(distDir))) console.log(JSON.stringify({ level: 'warn', msg: `wrangler deploy: ${problem}` }));

/**
 * What the Worker reads from its environment: the service's settings (functions/env.ts), so that a new one reaches
 * the preview too (SEARCH_CACHE_MB was missing from a list written here). Not REDIS_URL: a Worker keeps its
 * rate-limit budget and OAuth state in Durable Objects.
 */
const PASSED = SERVICE_ENV_NAMES.filter((name) => name !== 'REDIS_URL');
const vars = PASSED.filter((name) => env[name]).flatMap((name) => ['--var', `${name}:${env[name]}`]);

// wrangler's devtools inspector defaults to port 9229 for every instance: a second preview (or a debugger already
// listening) would make it exit. Port 0 lets the system choose one as it binds, unless one is asked for; a port
// probed free beforehand could be taken by another process before wrangler binds it.
const inspectorPort = env.INSPECTOR_PORT || '0';

const child = spawn(
  process.execPath,
  [join(ROOT, 'node_modules/wrangler/bin/wrangler.js'), 'dev', '--config', config, '--ip', host, '--port', port, '--local', '--show-interactive-dev-session=false', '--inspector-port', inspectorPort, '--inspector-ip', '127.0.0.1', '--persist-to', env.WRANGLER_PERSIST_DIR || join(distDir, 'cloudflare', 'state'), ...vars],
  { cwd: ROOT, stdio: 'inherit', env: { ...env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_LOG: env.WRANGLER_LOG || 'info' } },
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
