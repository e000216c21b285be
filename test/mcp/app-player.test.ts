/**
 * The in-chat player (MCP Apps) end to end: the official SDK client reads the ui:// resource and calls
 * search_episodes on the real server; Chromium renders the player in a sandboxed iframe the way a host does; the
 * extension's own host side (AppBridge from @modelcontextprotocol/ext-apps) speaks the protocol with it through
 * postMessage. Nothing in the View is mocked: if the page got the protocol wrong, AppBridge would refuse it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../helpers/browser.ts';
import { chromium, type Browser, type Frame, type Page } from 'playwright';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import { EXTENSION_ID, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import { MCP_APP_MIME_TYPE, PLAYER_META_KEY, PLAYER_URI, UI_EXTENSION_ID, type PlayerData } from '../../contract/mcp/app.ts';
import type { RunningServer } from '../helpers/server.ts';
import { startMcpServer } from './helpers.ts';


let server: RunningServer;
let client: Client;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startMcpServer();
  client = new Client({ name: 'app-player-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
  await client?.close();
  await server?.stop();
});

/** A Transport from AppBridge (in Node) to the View (in the page's iframe), through the host page. */
function iframeTransport(target: Page): Transport & { deliver(message: JSONRPCMessage): void } {
  const transport: Transport & { deliver(message: JSONRPCMessage): void } = {
    async start() {},
    async send(message) {
      await target.evaluate((m) => (document.getElementById('view') as HTMLIFrameElement).contentWindow!.postMessage(m, '*'), message);
    },
    async close() {
      transport.onclose?.();
    },
    deliver(message) {
      transport.onmessage?.(message);
    },
  };
  return transport;
}

describe('the player in a host', () => {
  it('uses the extension\'s own constants', () => {
    expect(MCP_APP_MIME_TYPE).toBe(RESOURCE_MIME_TYPE);
    expect(UI_EXTENSION_ID).toBe(EXTENSION_ID);
    expect(RESOURCE_URI_META_KEY).toBe('ui/resourceUri');
  });

  it('initializes with AppBridge, opens the best search moment with the lines around it, and asks the host to open links', async () => {
    const [{ contents }, result] = await Promise.all([
      client.readResource({ uri: PLAYER_URI }),
      client.callTool({ name: 'search_episodes', arguments: { query: 'bees hive', limit: 3 } }) as Promise<CallToolResult>,
    ]);
    const html = (contents[0] as { text: string }).text;
    const data = (result._meta as Record<string, PlayerData>)[PLAYER_META_KEY]!;
    const top = data.items[0]!;

    page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(String(e)));
    const transport = iframeTransport(page);
    await page.exposeFunction('toHost', (message: JSONRPCMessage) => transport.deliver(message));
    await page.setContent('<!doctype html><iframe id="view" sandbox="allow-scripts" style="width:480px;height:400px"></iframe>');
    await page.evaluate(() => {
      const frame = document.getElementById('view') as HTMLIFrameElement;
      window.addEventListener('message', (e) => {
        if (e.source === frame.contentWindow) (window as unknown as { toHost(m: unknown): void }).toHost(e.data);
      });
    });

    const bridge = new AppBridge(null, { name: 'test-host', version: '1.0.0' }, { openLinks: {} });
    const initialized = new Promise<void>((resolve) => (bridge.oninitialized = () => resolve()));
    const sizes: number[] = [];
    bridge.onsizechange = ({ height }) => void (height !== undefined && sizes.push(height));
    const links: string[] = [];
    bridge.onopenlink = async ({ url }) => {
      links.push(url);
      return {};
    };
    await bridge.connect(transport);
    await page.evaluate((srcdoc) => ((document.getElementById('view') as HTMLIFrameElement).srcdoc = srcdoc), html);
    await initialized;
    expect(bridge.getAppVersion()).toMatchObject({ name: 'podcast-player' });

    await bridge.sendToolInput({ arguments: { query: 'bees hive', limit: 3 } });
    await bridge.sendToolResult(result);

    const view = page.frames().find((f) => f !== page.mainFrame()) as Frame;
    await view.waitForSelector('h1');
    expect(await view.textContent('h1')).toBe(`#${top.id} ${top.title}`);
    expect(await view.getAttribute('audio', 'src')).toBe(`${top.audio}#t=${Math.floor(top.start)}`);
    const current = top.lines.find((l) => l.current)!;
    expect(await view.textContent('li.current')).toBe(`${current.timestamp}${current.text}`);
    expect(await view.locator('li').count()).toBe(top.lines.length);

    await view.click('nav button:first-child');
    await expect.poll(() => links).toEqual([top.url]);
    if (data.items.length > 1) {
      await view.click('nav button:nth-child(2)');
      await expect.poll(() => view.textContent('h1')).toBe(`#${data.items[1]!.id} ${data.items[1]!.title}`);
    }
    await expect.poll(() => sizes.length).toBeGreaterThan(0);
    // The page's own CSP let its hashed script and style run, and nothing else was attempted.
    expect(problems.filter((p) => !/media|audio|ERR_|Failed to load resource/i.test(p))).toEqual([]);
    await bridge.close();
  });

  it('a result without player data shows its text', async () => {
    const { contents } = await client.readResource({ uri: PLAYER_URI });
    const p = await browser.newPage();
    const transport = iframeTransport(p);
    await p.exposeFunction('toHost', (message: JSONRPCMessage) => transport.deliver(message));
    await p.setContent('<!doctype html><iframe id="view" sandbox="allow-scripts"></iframe>');
    await p.evaluate(() => {
      const frame = document.getElementById('view') as HTMLIFrameElement;
      window.addEventListener('message', (e) => e.source === frame.contentWindow && (window as unknown as { toHost(m: unknown): void }).toHost(e.data));
    });
    const bridge = new AppBridge(null, { name: 'test-host', version: '1.0.0' }, {});
    const initialized = new Promise<void>((resolve) => (bridge.oninitialized = () => resolve()));
    await bridge.connect(transport);
    await p.evaluate((srcdoc) => ((document.getElementById('view') as HTMLIFrameElement).srcdoc = srcdoc), (contents[0] as { text: string }).text);
    await initialized;
    await bridge.sendToolInput({ arguments: {} });
    await bridge.sendToolResult({ content: [{ type: 'text', text: 'No episode matches "zzz".' }] });
    const view = p.frames().find((f) => f !== p.mainFrame()) as Frame;
    await expect.poll(() => view.textContent('main')).toBe('No episode matches "zzz".');
    await bridge.close();
    await p.close();
  });
});
