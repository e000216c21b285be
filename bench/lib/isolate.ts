/**
 * Pure helpers of bench/isolate.ts (the Cloudflare preview's isolate memory): which DevTools target is the
 * Worker, and V8 flags written into workerd's binary Cap'n Proto config (how a heap limit is enforced locally:
 * workerd itself enforces none). Which files Workers takes as assets is hosts/cloudflare/asset-plan.ts.
 */

/** One entry of a DevTools inspector's /json list. */
export interface InspectorTarget {
  id: string;
  title?: string;
  type?: string;
  webSocketDebuggerUrl: string;
}

/**
 * The user Worker's target in wrangler's inspector proxy /json list: the one whose path names the Worker, else
 * the only one ("Cloudflare Worker"). Throws with the list when neither (several Workers, none named so).
 */
export function pickWorkerTarget(list: unknown, workerName: string): InspectorTarget {
  if (!Array.isArray(list)) throw new Error(`inspector /json did not answer a list: ${JSON.stringify(list).slice(0, 200)}`);
  const targets = list.filter((t): t is InspectorTarget => typeof t?.webSocketDebuggerUrl === 'string' && typeof t?.id === 'string');
  const named = targets.filter((t) => {
    try {
      return decodeURIComponent(new URL(t.webSocketDebuggerUrl).pathname.replace(/^\//, '')) === workerName;
    } catch {
      return false;
    }
  });
  if (named.length === 1) return named[0]!;
  if (targets.length === 1) return targets[0]!;
  throw new Error(`no single inspector target for Worker "${workerName}": ${JSON.stringify(targets.map((t) => t.webSocketDebuggerUrl))}`);
}

/* ---- workerd's binary config (Cap'n Proto, unpacked, with a segment table) ------------------------------- */

/** Config.v8Flags is the root struct's third pointer (workerd.capnp: services @0, sockets @1, v8Flags @2). */
const V8_FLAGS_POINTER = 2;

interface Message {
  segments: DataView[];
}

function readMessage(bytes: Uint8Array): Message {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(0, true) + 1;
  const headerWords = Math.ceil((4 + 4 * count) / 8);
  let offset = headerWords * 8;
  const segments: DataView[] = [];
  for (let i = 0; i < count; i++) {
    const words = view.getUint32(4 + 4 * i, true);
    if (offset + words * 8 > bytes.byteLength) throw new Error('workerd config: truncated Cap\'n Proto message');
    segments.push(new DataView(bytes.buffer, bytes.byteOffset + offset, words * 8));
    offset += words * 8;
  }
  return { segments };
}

function writeMessage(segments: Uint8Array[]): Uint8Array {
  const headerWords = Math.ceil((4 + 4 * segments.length) / 8);
  const total = headerWords * 8 + segments.reduce((n, s) => n + s.byteLength, 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, segments.length - 1, true);
  segments.forEach((s, i) => view.setUint32(4 + 4 * i, s.byteLength / 8, true));
  let offset = headerWords * 8;
  for (const s of segments) {
    out.set(s, offset);
    offset += s.byteLength;
  }
  return out;
}

/** A pointer word as two 32-bit halves. */
function pointerAt(seg: DataView, word: number): { lo: number; hi: number } {
  return { lo: seg.getUint32(word * 8, true), hi: seg.getUint32(word * 8 + 4, true) };
}

/** Follows a (single-hop) far pointer to its landing pad; returns where the real pointer word is. */
function land(msg: Message, segment: number, word: number): { segment: number; word: number } {
  const { lo, hi } = pointerAt(msg.segments[segment]!, word);
  if ((lo & 3) !== 2) return { segment, word };
  if (lo & 4) throw new Error('workerd config: double-far pointers are not supported');
  return { segment: hi, word: lo >>> 3 };
}

/** The root struct: its segment, first pointer word and pointer count. */
function rootStruct(msg: Message): { segment: number; pointers: number; pointerCount: number } {
  const at = land(msg, 0, 0);
  const { lo, hi } = pointerAt(msg.segments[at.segment]!, at.word);
  if ((lo & 3) !== 0) throw new Error('workerd config: the root is not a struct');
  const start = at.word + 1 + (lo >> 2);
  return { segment: at.segment, pointers: start + (hi & 0xffff), pointerCount: hi >>> 16 };
}

/** Reads the text list a pointer word points to (null pointer: empty). */
function readTextList(msg: Message, segment: number, word: number): string[] {
  const at = land(msg, segment, word);
  const seg = msg.segments[at.segment]!;
  const { lo, hi } = pointerAt(seg, at.word);
  if (lo === 0 && hi === 0) return [];
  if ((lo & 3) !== 1 || (hi & 7) !== 6) throw new Error('workerd config: v8Flags is not a list of pointers');
  const start = at.word + 1 + (lo >> 2);
  const texts: string[] = [];
  for (let i = 0; i < hi >>> 3; i++) {
    const textAt = land(msg, at.segment, start + i);
    const textSeg = msg.segments[textAt.segment]!;
    const p = pointerAt(textSeg, textAt.word);
    if ((p.lo & 3) !== 1 || (p.hi & 7) !== 2) throw new Error('workerd config: a v8Flags entry is not text');
    const from = (textAt.word + 1 + (p.lo >> 2)) * 8;
    const length = (p.hi >>> 3) - 1; // without the NUL
    texts.push(new TextDecoder().decode(new Uint8Array(textSeg.buffer, textSeg.byteOffset + from, length)));
  }
  return texts;
}

/** The V8 flags a binary workerd config sets (Config.v8Flags). */
export function readV8Flags(config: Uint8Array): string[] {
  const msg = readMessage(config);
  const root = rootStruct(msg);
  if (root.pointerCount <= V8_FLAGS_POINTER) return [];
  return readTextList(msg, root.segment, root.pointers + V8_FLAGS_POINTER);
}

/**
 * The same binary workerd config with `flags` added to Config.v8Flags: the list is written into a new segment
 * and the root's pointer made a far pointer to it, so nothing else in the message moves.
 */
export function withV8Flags(config: Uint8Array, flags: readonly string[]): Uint8Array {
  const msg = readMessage(config);
  const root = rootStruct(msg);
  if (root.pointerCount <= V8_FLAGS_POINTER) throw new Error('workerd config: the root struct has no v8Flags field');
  const all = [...readTextList(msg, root.segment, root.pointers + V8_FLAGS_POINTER), ...flags];
  const texts = all.map((f) => new TextEncoder().encode(f));
  // Landing pad (1 word) + list of pointers (1 word each) + each text with its NUL, padded to words.
  const textWords = texts.map((t) => Math.ceil((t.byteLength + 1) / 8));
  const words = 1 + texts.length + textWords.reduce((a, b) => a + b, 0);
  const extra = new Uint8Array(words * 8);
  const view = new DataView(extra.buffer);
  const listPointer = (at: number, target: number, elementSize: number, count: number) => {
    view.setUint32(at * 8, (((target - at - 1) << 2) | 1) >>> 0, true);
    view.setUint32(at * 8 + 4, ((count << 3) | elementSize) >>> 0, true);
  };
  listPointer(0, 1, 6, texts.length);
  let next = 1 + texts.length;
  texts.forEach((text, i) => {
    listPointer(1 + i, next, 2, text.byteLength + 1);
    extra.set(text, next * 8);
    next += textWords[i]!;
  });
  const segments = msg.segments.map((s) => new Uint8Array(s.buffer.slice(s.byteOffset, s.byteOffset + s.byteLength)));
  const rootSeg = new DataView(segments[root.segment]!.buffer);
  const slot = (root.pointers + V8_FLAGS_POINTER) * 8;
  rootSeg.setUint32(slot, 2, true); // far pointer, landing pad at word 0 of the new segment
  rootSeg.setUint32(slot + 4, segments.length, true);
  segments.push(extra);
  return writeMessage(segments);
}
