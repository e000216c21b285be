/**
 * The player that opens inside the conversation (MCP Apps extension, io.modelcontextprotocol/ui, spec 2026-01-26).
 * search_episodes, get_episode and get_latest_episode name this ui:// resource in their _meta.ui.resourceUri;
 * a host that supports MCP Apps reads it, renders it in a sandboxed iframe and hands it the tool result over
 * postMessage (JSON-RPC: ui/initialize, then ui/notifications/tool-result). The player reads the moment to play
 * and the transcript lines around it from the result's _meta[PLAYER_META_KEY]; hosts without MCP Apps ignore
 * both and show the tool's text, which says the same.
 *
 * The page is one self-contained HTML string: no framework, no network access (the tool result carries
 * everything), audio from the site's own origins only. Its own CSP (a meta tag) allows exactly its inline script
 * and style by hash, like the website's pages; the host's CSP, built from _meta.ui.csp, narrows it further.
 * The constants below are the package's own (@modelcontextprotocol/ext-apps); test/mcp checks they still match.
 */

export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';
export const UI_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/** The MCP Apps protocol revision the player speaks in ui/initialize. */
export const MCP_APPS_PROTOCOL_VERSION = '2026-01-26';
export const PLAYER_URI = 'ui://podcast/player.html';
/** Where a tool result carries the player's data (the moment and the lines around it). */
export const PLAYER_META_KEY = 'podcast/player';

/** What the player shows: one or more moments, the first one loaded. */
export interface PlayerData {
  items: PlayerItem[];
}

export interface PlayerItem {
  id: number;
  title: string;
  /** The episode page opened at the moment (?t=SECONDS). */
  url: string;
  audio?: string;
  /** Seconds from the start of the episode. */
  start: number;
  timestamp: string;
  /** Transcript lines around the moment; `current` marks the one being spoken at start. */
  lines: Array<{ start: number; timestamp: string; text: string; current?: boolean }>;
}

/** The tool _meta that opens the player: the current key and the older flat key some hosts still read. */
export const PLAYER_TOOL_META = { ui: { resourceUri: PLAYER_URI }, 'ui/resourceUri': PLAYER_URI } as const;

export const PLAYER_STYLE = `
:root{color-scheme:light dark;font:14px/1.45 system-ui,sans-serif}
body{margin:0;padding:12px;background:var(--color-background-primary,Canvas);color:var(--color-text-primary,CanvasText)}
h1{font-size:15px;margin:0 0 6px}
audio{width:100%;margin:4px 0 8px}
ol{list-style:none;margin:0;padding:0;max-height:220px;overflow:auto}
li{padding:3px 6px;border-radius:4px;cursor:pointer}
li.current{background:color-mix(in srgb,currentColor 12%,transparent);font-weight:600}
li time{opacity:.7;margin-right:6px;font-variant-numeric:tabular-nums}
nav{display:flex;gap:8px;flex-wrap:wrap;margin-top:8px}
button{font:inherit;padding:3px 10px;border-radius:6px;border:1px solid color-mix(in srgb,currentColor 30%,transparent);background:none;color:inherit;cursor:pointer}
p.note{opacity:.75;margin:0}
`.trim();

/** The View side of the MCP Apps protocol, by hand: about 80 lines instead of a 300 KB SDK bundle. */
export const PLAYER_SCRIPT = `
(() => {
  const META_KEY = ${JSON.stringify(PLAYER_META_KEY)};
  const parent = window.parent;
  const pending = new Map();
  let nextId = 1;
  const send = (msg) => parent.postMessage(Object.assign({ jsonrpc: '2.0' }, msg), '*');
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    send({ id, method, params });
  });
  const notify = (method, params) => send({ method, params });
  const main = document.querySelector('main');
  const el = (tag, text, cls) => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  };

  function openLink(url) {
    request('ui/open-link', { url }).catch(() => {});
  }

  function show(item, items) {
    main.replaceChildren();
    main.append(el('h1', '#' + item.id + ' ' + item.title));
    if (item.audio) {
      const audio = el('audio');
      audio.controls = true;
      audio.preload = 'metadata';
      audio.src = item.audio + '#t=' + Math.floor(item.start);
      main.append(audio);
      main.dataset.src = audio.src;
    } else {
      main.append(el('p', 'No audio for this episode.', 'note'));
    }
    const list = el('ol');
    for (const line of item.lines) {
      const li = el('li', undefined, line.current ? 'current' : '');
      li.dataset.start = String(line.start);
      li.append(el('time', line.timestamp), document.createTextNode(line.text));
      li.addEventListener('click', () => {
        const audio = main.querySelector('audio');
        if (!audio) return;
        audio.currentTime = line.start;
        audio.play().catch(() => {});
      });
      list.append(li);
    }
    if (item.lines.length) main.append(list);
    const nav = el('nav');
    const open = el('button', 'Open at ' + item.timestamp);
    open.addEventListener('click', () => openLink(item.url));
    nav.append(open);
    for (const other of items) {
      if (other === item) continue;
      const b = el('button', '#' + other.id + ' at ' + other.timestamp);
      b.title = other.title;
      b.addEventListener('click', () => show(other, items));
      nav.append(b);
    }
    main.append(nav);
    const current = list.querySelector('.current');
    if (current) current.scrollIntoView({ block: 'nearest' });
    resized();
  }

  function render(result) {
    const data = result && result._meta && result._meta[META_KEY];
    if (data && Array.isArray(data.items) && data.items.length) return show(data.items[0], data.items);
    const text = ((result && result.content) || []).filter((c) => c.type === 'text').map((c) => c.text).join('\\n');
    main.replaceChildren(el('p', text || 'Nothing to play.', 'note'));
    resized();
  }

  function theme(context) {
    const vars = context && context.styles && context.styles.variables;
    if (vars) for (const [name, value] of Object.entries(vars)) if (value) document.documentElement.style.setProperty(name, value);
    if (context && context.theme) document.documentElement.style.colorScheme = context.theme;
  }

  let lastHeight = 0;
  function resized() {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === lastHeight) return;
    lastHeight = height;
    notify('ui/notifications/size-changed', { height });
  }

  window.addEventListener('message', (event) => {
    if (event.source !== parent) return;
    const m = event.data;
    if (!m || m.jsonrpc !== '2.0') return;
    if (m.method === undefined) {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.error) p.reject(m.error); else p.resolve(m.result);
      return;
    }
    if (m.method === 'ui/notifications/tool-result') render(m.params);
    else if (m.method === 'ui/notifications/host-context-changed') theme(m.params);
    else if (m.id !== undefined) {
      if (m.method === 'ping' || m.method === 'ui/resource-teardown') send({ id: m.id, result: {} });
      else send({ id: m.id, error: { code: -32601, message: 'Method not found: ' + m.method } });
    }
  });

  request('ui/initialize', {
    appInfo: { name: 'podcast-player', version: '1.0.0' },
    appCapabilities: {},
    protocolVersion: ${JSON.stringify(MCP_APPS_PROTOCOL_VERSION)},
  }).then((result) => {
    theme(result && result.hostContext);
    notify('ui/notifications/initialized', {});
    resized();
  }, () => {});
})();
`.trim();

/**
 * The player page. `csp` is its own policy: the hashes of PLAYER_SCRIPT and PLAYER_STYLE, and the origins its
 * audio may come from.
 */
export function playerHtml(options: { title: string; lang: string; scriptHash: string; styleHash: string; mediaOrigins: string[] }): string {
  const csp = [
    "default-src 'none'",
    `script-src '${options.scriptHash}'`,
    `style-src '${options.styleHash}'`,
    `media-src ${options.mediaOrigins.join(' ') || "'none'"}`,
    "img-src 'none'",
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!doctype html>
<html lang="${escapeHtml(options.lang)}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(options.title)} player</title>
<style>${PLAYER_STYLE}</style>
</head>
<body>
<main><p class="note">Loading the episode…</p></main>
<script>${PLAYER_SCRIPT}</script>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  // Attributes are double-quoted, so a ' (the CSP's 'none', 'sha256-…') stays as it is.
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
