/**
 * Child processes of the benchmark: every one is tracked and stopped when the benchmark ends, however it ends
 * (normal exit, a thrown error, Ctrl-C, SIGTERM), and every wait has a time limit.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const children = new Set<ChildProcess>();

function killAll(signal: NodeJS.Signals = 'SIGKILL'): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      try {
        process.kill(child.pid, signal);
      } catch {}
    }
  }
}

let installed = false;
function installCleanup(): void {
  if (installed) return;
  installed = true;
  process.on('exit', () => killAll('SIGKILL'));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      killAll('SIGKILL');
      process.exit(130);
    });
  }
}

export function spawnTracked(command: string, args: string[], options: SpawnOptions): ChildProcess {
  installCleanup();
  const child = spawn(command, args, { ...options, detached: false });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

export class TimeoutError extends Error {
  readonly code = 'bench_timeout';
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs a command to completion, killing it when it takes longer than timeoutMs. */
export async function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs: number; onLine?: (line: string) => void },
): Promise<RunResult> {
  const started = performance.now();
  const child = spawnTracked(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: string[] = [];
  const err: string[] = [];
  child.stdout!.on('data', (d) => out.push(String(d)));
  child.stderr!.on('data', (d) => err.push(String(d)));
  if (options.onLine) {
    createInterface({ input: child.stdout! }).on('line', options.onLine);
    createInterface({ input: child.stderr! }).on('line', options.onLine);
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) =>
    child.on('close', (c, s) => done([c, s])),
  );
  clearTimeout(timer);
  const result = { code, signal, stdout: out.join(''), stderr: err.join(''), ms: performance.now() - started };
  if (timedOut) {
    throw new TimeoutError(`${command} ${args.join(' ')} took longer than ${options.timeoutMs} ms:\n${tail(result.stdout + result.stderr)}`);
  }
  return result;
}

/** Runs a bench child script that prints one JSON object as its last stdout line. */
export async function runJson<T>(script: string, args: string[], options: { timeoutMs: number; nodeArgs?: string[]; env?: NodeJS.ProcessEnv }): Promise<T> {
  const result = await run(process.execPath, [...(options.nodeArgs ?? []), script, ...args], {
    timeoutMs: options.timeoutMs,
    env: options.env ?? process.env,
  });
  const last = result.stdout.trim().split('\n').at(-1) ?? '';
  if (result.code !== 0) throw new Error(`${script} ${args.join(' ')} exited ${result.code ?? result.signal}:\n${tail(result.stdout + result.stderr)}`);
  try {
    return JSON.parse(last) as T;
  } catch {
    throw new Error(`${script} printed no JSON result:\n${tail(result.stdout + result.stderr)}`);
  }
}

export interface Server {
  url: string;
  pid: number;
  child: ChildProcess;
  /** When the process was spawned and when it said it was listening (performance.now() of this process). */
  spawnedAt: number;
  listeningAt: number;
  output: string[];
  stop(): Promise<void>;
}

/**
 * Spawns a server that logs a JSON line with msg "listening" and its url (hosts/node/main.ts does; so does
 * bench/baseline-server.ts) and resolves once it does.
 */
export async function startServer(
  args: string[],
  options: { env: NodeJS.ProcessEnv; timeoutMs: number; nodeArgs?: string[]; cwd?: string },
): Promise<Server> {
  const spawnedAt = performance.now();
  const child = spawnTracked(process.execPath, [...(options.nodeArgs ?? []), ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new TimeoutError(`server ${args.join(' ')} did not listen within ${options.timeoutMs} ms:\n${tail(output.join('\n'))}`));
    }, options.timeoutMs);
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        if (output.length < 2000) output.push(line);
        if (!line.startsWith('{')) return;
        try {
          const entry = JSON.parse(line) as { msg?: string; url?: string };
          if (entry.msg === 'listening' && entry.url) {
            clearTimeout(timer);
            done(entry.url.replace(/\/$/, ''));
          }
        } catch {}
      });
    }
    void exited.then(() => {
      clearTimeout(timer);
      fail(new Error(`server ${args.join(' ')} exited (${child.exitCode ?? child.signalCode}) before listening:\n${tail(output.join('\n'))}`));
    });
  });
  const listeningAt = performance.now();
  return {
    url,
    pid: child.pid!,
    child,
    spawnedAt,
    listeningAt,
    output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Peak and current resident memory of a process, from /proc (Linux), in bytes. */
export function processMemory(pid: number): { hwm: number; rss: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    return { hwm: kb('VmHWM'), rss: kb('VmRSS') };
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) a live process has used so far, in ms, from /proc/<pid>/stat (Linux). */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesized command name; utime and stime are the 14th and 15th fields overall.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
/** USER_HZ: 100 on every Linux the benchmark targets. */
const CLOCK_TICKS = 100;

export function tail(text: string, lines = 30): string {
  return text.trim().split('\n').slice(-lines).join('\n');
}
