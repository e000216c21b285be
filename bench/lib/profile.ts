/**
 * Summarizes a V8 .cpuprofile (node --cpu-prof): where the samples fell, by function (self and inclusive time)
 * and by package or project folder, so RESULTS.md can say why a stage is slow without opening DevTools.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface Frame {
  fn: string;
  where: string;
  selfMs: number;
  selfPct: number;
  totalMs: number;
  totalPct: number;
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  /** Share of samples outside JavaScript: idle (waiting on I/O or the client), GC, native program code. */
  special: Record<string, number>;
  bySelf: Frame[];
  byTotal: Frame[];
  byWhere: Array<{ where: string; selfMs: number; selfPct: number }>;
}

const ROOT = relative('/', new URL('../..', import.meta.url).pathname);

/** "lunr", "@astrojs/node", "functions/search", "src/build", "node:internal", "(garbage collector)", ... */
export function whereOf(frame: CallFrame): string {
  const url = frame.url;
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  // The only WebAssembly in this server is Node's own TypeScript type stripper (amaro, swc compiled to wasm):
  // its frames sit under stripTypeScriptModuleTypes in every profile taken so far.
  if (url.startsWith('wasm://')) return 'wasm (TypeScript type stripping)';
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/').replace(/^node:internal\/.*/, 'node:internal');
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + 14).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const path = url.replace(/^file:\/\//, '');
  const inRoot = path.indexOf(`/${ROOT}/`);
  if (inRoot >= 0) return path.slice(inRoot + ROOT.length + 2).split('/').slice(0, 2).join('/');
  if (path.includes('/server/') || path.includes('/chunks/')) return '(build output)';
  return path.split('/').slice(-2).join('/');
}

function label(frame: CallFrame): string {
  const file = frame.url ? frame.url.replace(/^file:\/\//, '').split('/').slice(-1)[0] : '';
  return `${frame.functionName || '(anonymous)'}${file ? ` ${file}:${frame.lineNumber + 1}` : ''}`;
}

export function summarizeProfile(file: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  // timeDeltas[i] is the time before sample i; the time a sample stands for is the delta that follows it.
  for (let i = 0; i < profile.samples.length; i++) {
    const us = profile.timeDeltas[i + 1] ?? 0;
    selfUs.set(profile.samples[i]!, (selfUs.get(profile.samples[i]!) ?? 0) + Math.max(0, us));
  }
  const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0) || 1;

  const self = new Map<string, { frame: CallFrame; us: number }>();
  const total = new Map<string, { frame: CallFrame; us: number }>();
  const where = new Map<string, number>();
  const special: Record<string, number> = {};
  const keyOf = (f: CallFrame) => `${f.functionName}|${f.url}|${f.lineNumber}`;

  // Depth-first from the root, carrying the keys on the stack so recursion is counted once in inclusive time.
  const inclusive = (node: ProfileNode, stack: Set<string>): number => {
    const key = keyOf(node.callFrame);
    const mine = selfUs.get(node.id) ?? 0;
    let sum = mine;
    const fresh = !stack.has(key);
    if (fresh) stack.add(key);
    for (const child of node.children ?? []) sum += inclusive(byId.get(child)!, stack);
    if (fresh) stack.delete(key);
    if (mine) {
      const s = self.get(key) ?? { frame: node.callFrame, us: 0 };
      s.us += mine;
      self.set(key, s);
      const w = whereOf(node.callFrame);
      where.set(w, (where.get(w) ?? 0) + mine);
      if (['(idle)', '(garbage collector)', '(program)'].includes(node.callFrame.functionName)) {
        special[node.callFrame.functionName] = (special[node.callFrame.functionName] ?? 0) + mine / totalUs;
      }
    }
    if (fresh && node.callFrame.functionName !== '(root)') {
      const t = total.get(key) ?? { frame: node.callFrame, us: 0 };
      t.us += sum;
      total.set(key, t);
    }
    return sum;
  };
  inclusive(profile.nodes[0]!, new Set());

  const frame = (f: CallFrame): Frame => {
    const s = self.get(keyOf(f))?.us ?? 0;
    const t = total.get(keyOf(f))?.us ?? s;
    return { fn: label(f), where: whereOf(f), selfMs: s / 1000, selfPct: s / totalUs, totalMs: t / 1000, totalPct: t / totalUs };
  };
  return {
    file,
    totalMs: totalUs / 1000,
    special,
    bySelf: [...self.values()].sort((a, b) => b.us - a.us).slice(0, top).map((x) => frame(x.frame)),
    byTotal: [...total.values()]
      .filter((x) => x.frame.url && !whereOf(x.frame).startsWith('node:') && !x.frame.url.startsWith('wasm:'))
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((x) => frame(x.frame)),
    byWhere: [...where.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([w, us]) => ({ where: w, selfMs: us / 1000, selfPct: us / totalUs })),
  };
}

if (import.meta.main) {
  const summary = summarizeProfile(process.argv[2]!, Number(process.argv[3] ?? 15));
  console.log(JSON.stringify(summary, null, 2));
}
