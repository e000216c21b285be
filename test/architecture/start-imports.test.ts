/**
 * What a process loads to start serving: the pipeline (functions/app.ts), the route table, the Node host and the
 * signing key prepared as hosts do at start, and a request that no handler module answers. MCP, OAuth and donate
 * handlers, jose and the MCP SDK are for the requests that use them (functions/lazy.ts); each costs every start
 * CPU and memory when a static import brings it back onto the search path. Checked in a fresh Node process, since
 * this one has loaded all of them already.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

const CHILD = `
import { registerHooks } from 'node:module';
const loaded = new Set();
registerHooks({ load(url, context, next) { loaded.add(url); return next(url, context); } });
const root = process.env.ROOT_URL;
const { createApp } = await import(root + 'functions/app.ts');
await import(root + 'functions/routes.ts');
await import(root + 'hosts/node/main.ts');
const { readServiceEnv } = await import(root + 'functions/env.ts');
const { DataStore } = await import(root + 'functions/data.ts');
const { prepareSigningKey } = await import(root + 'functions/oauth/keys.ts');
const log = { info() {}, warn() {}, error() {} };
const env = readServiceEnv({ LOG_LEVEL: 'silent', SITE_URL: 'https://podcast.example' });
const key = await prepareSigningKey(env, log);
const app = createApp({ env, log, data: new DataStore(async () => new Response(null, { status: 404 })) });
const call = (path, init) => app.fetch(new Request('http://127.0.0.1' + path, init), { clientIp: '127.0.0.1' });
const answers = {
  key: key.source,
  notFound: (await call('/nothing', { headers: { Authorization: 'Basic cHVibGljOg==' } })).status,
  mcpAllow: (await call('/mcp', { method: 'OPTIONS' })).headers.get('allow'),
  tokenGet: (await call('/oauth/token')).status,
  donateCors: (await call('/donate', { method: 'OPTIONS', headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'POST' } })).headers.get('access-control-allow-origin'),
};
const atStart = [...loaded];
answers.agentAuth = (await call('/agent/auth')).status;
console.log(JSON.stringify({ atStart, afterAgentAuth: [...loaded], answers }));
`;

function run(): { atStart: string[]; afterAgentAuth: string[]; answers: Record<string, unknown> } {
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD], {
    cwd: ROOT,
    env: { ...process.env, ROOT_URL: pathToFileURL(`${ROOT}/`).href, NODE_OPTIONS: '' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (child.status !== 0) throw new Error(`the child process failed (${child.status ?? child.signal}):\n${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!);
}

const inRepo = (urls: string[]) => urls.filter((u) => u.startsWith(pathToFileURL(`${ROOT}/`).href) && !u.includes('/node_modules/')).map((u) => u.slice(pathToFileURL(`${ROOT}/`).href.length));
/** Modules of these folders that the start, CORS, the Allow header and the bearer middleware need. */
const NEEDED_AT_START = ['functions/mcp/routes.ts', 'functions/oauth/routes.ts', 'functions/oauth/bearer.ts', 'functions/oauth/issuer.ts', 'functions/oauth/keys.ts', 'functions/donate/routes.ts'];

describe('what starting the service loads', () => {
  const { atStart, afterAgentAuth, answers } = run();

  it('the route table answers without the handler modules: Allow, CORS and 405 come from it alone', () => {
    expect(answers).toMatchObject({ key: 'generated', notFound: 404, mcpAllow: 'GET, POST, HEAD, OPTIONS', tokenGet: 405, donateCors: '*' });
  });

  it('neither the MCP SDK nor jose', () => {
    expect(atStart.some((u) => u.endsWith('/functions/app.ts'))).toBe(true);
    expect(atStart.some((u) => u.includes('/node_modules/zod/'))).toBe(true);
    expect(atStart.filter((u) => u.includes('/node_modules/@modelcontextprotocol/'))).toEqual([]);
    expect(atStart.filter((u) => u.includes('/node_modules/jose/'))).toEqual([]);
  });

  it('no MCP, OAuth or donate handler module, nor the MCP contract behind them', () => {
    const heavy = inRepo(atStart).filter((p) => /^functions\/(mcp|oauth|donate)\/|^contract\/mcp\//.test(p) && !NEEDED_AT_START.includes(p));
    expect(heavy).toEqual([]);
  });

  it('a handler module loads with the first request to its route', () => {
    expect(answers.agentAuth).toBe(401);
    expect(inRepo(afterAgentAuth)).toContain('functions/oauth/agent-auth.ts');
  });
});
