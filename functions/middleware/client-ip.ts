/**
 * Who is the client? The socket's address, unless the operator said how many reverse proxies stand in front
 * (TRUST_PROXY = hops) and which header they write (TRUST_PROXY_HEADER: X-Forwarded-For, or RFC 7239 Forwarded).
 * Then the address is read from the right end of that header: each trusted proxy appends the address it saw, so
 * the entry `hops` places from the right is the last one a trusted party wrote. Everything left of it is
 * client-supplied and can be spoofed, so a client can never choose its own rate-limit key. Only the named header
 * is read: a proxy that writes one of them passes the other through as the client sent it, so reading whichever
 * is present would let a client choose its own key by sending the one the proxy does not write.
 */

/** The headers a reverse proxy may write the client's address in (TRUST_PROXY_HEADER). */
export const PROXY_HEADERS = ['x-forwarded-for', 'forwarded'] as const;
export type ProxyHeader = (typeof PROXY_HEADERS)[number];

export function resolveClientIp(headers: Headers, peer: string, trustProxy: number, header: ProxyHeader = 'x-forwarded-for'): string {
  const socketIp = normalizeIp(peer) ?? peer;
  if (trustProxy <= 0) return socketIp;
  const chain = header === 'forwarded' ? forwardedParams(headers.get('forwarded'), 'for') : xffChain(headers.get('x-forwarded-for'));
  if (chain.length === 0) return socketIp;
  // addresses[0] is our direct peer (a trusted proxy); addresses[i] is what hop i saw.
  let client = socketIp;
  for (let hop = 1; hop <= trustProxy; hop++) {
    const entry = chain[chain.length - hop];
    if (entry === undefined) break;
    const ip = normalizeIp(entry);
    // A malformed entry means the chain cannot be trusted beyond this point.
    if (!ip) break;
    client = ip;
  }
  return client;
}

/** The X-Forwarded-For addresses, leftmost (claimed client) first. */
function xffChain(value: string | null): string[] {
  return value ? value.split(',').map((s) => s.trim()).filter(Boolean) : [];
}

/** One parameter (`for`, `proto`) of each element of a Forwarded header, leftmost first, unquoted. */
export function forwardedParams(value: string | null | undefined, name: 'for' | 'proto'): string[] {
  if (!value) return [];
  const out: string[] = [];
  const pattern = new RegExp(`(?:^|;)\\s*${name}\\s*=\\s*("[^"]*"|[^;,\\s]*)`, 'i');
  for (const element of value.split(',')) {
    const m = pattern.exec(element);
    if (m) out.push(m[1]!.replace(/^"|"$/g, ''));
  }
  return out;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** A bare IPv4 or IPv6 address (ports, brackets and the IPv4-mapped prefix removed), or undefined if it is none. */
export function normalizeIp(value: string): string | undefined {
  let v = value.trim();
  if (v.startsWith('[')) {
    const end = v.indexOf(']');
    if (end < 0) return undefined;
    v = v.slice(1, end);
  } else if (/^[\d.]+:\d+$/.test(v)) {
    v = v.slice(0, v.lastIndexOf(':'));
  }
  if (v.toLowerCase().startsWith('::ffff:') && IPV4.test(v.slice(7))) v = v.slice(7);
  if (IPV4.test(v)) return v;
  const zoneless = v.split('%')[0]!;
  const groups = expandIpv6(zoneless);
  if (!groups) return undefined;
  // An IPv4-mapped address written in hex (::ffff:a05:505) is the IPv4 client 10.5.5.5, as in dotted form.
  if (groups.slice(0, 5).every((g) => g === '0000') && groups[5] === 'ffff') {
    const [hi, lo] = [parseInt(groups[6]!, 16), parseInt(groups[7]!, 16)];
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return zoneless.toLowerCase();
}

/** The eight 16-bit groups of an IPv6 address, or undefined when it is not one. */
export function expandIpv6(value: string): string[] | undefined {
  if (!/^[0-9a-f:.]+$/i.test(value) || !value.includes(':')) return undefined;
  let text = value;
  // A trailing dotted quad (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) is two groups.
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    if (!IPV4.test(quad[1]!)) return undefined;
    const [a, b, c, d] = quad[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -quad[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return undefined;
  return groups.map((g) => g.toLowerCase().padStart(4, '0'));
}
