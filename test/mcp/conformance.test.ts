/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, installed locally, so it runs offline)
 * against the real server, for the scenarios that apply to it. The others need fixture tools, prompts or resources
 * under the suite's own names (test://static-text, test_simple_prompt, ...), sampling, elicitation, logging,
 * subscriptions or server-sent streams, which this server does not have by design.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../helpers/server.ts';
import { startMcpServer } from './helpers.ts';

const CLI = resolve(import.meta.dirname, '../../node_modules/@modelcontextprotocol/conformance/dist/index.js');
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'prompts-list', 'dns-rebinding-protection'];

let server: RunningServer;
let outDir: string;

beforeAll(async () => {
  server = await startMcpServer();
  outDir = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
});
afterAll(async () => {
  await server?.stop();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

function conformance(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => done({ code, output }));
  });
}

describe('npx conformance server', () => {
  it.each(SCENARIOS)('%s passes', async (scenario) => {
    const dir = join(outDir, scenario);
    // The server's own address is 127.0.0.1, which the DNS-rebinding scenario requires (a localhost URL).
    const { code, output } = await conformance(['server', '--url', `${server.url}/mcp`, '--scenario', scenario, '-o', dir]);
    expect(output).toMatch(/0 failed/);
    expect(code, output).toBe(0);
    const [run] = readdirSync(dir);
    const checks = JSON.parse(readFileSync(join(dir, run!, 'checks.json'), 'utf8')) as Array<{ id: string; status: string; errorMessage?: string }>;
    expect(checks.length).toBeGreaterThan(0);
    for (const check of checks) expect(check.status, `${check.id}: ${check.errorMessage ?? ''}`).toBe('SUCCESS');
  });
});
