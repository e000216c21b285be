/**
 * glibc gives each thread that allocates its own malloc arena (up to 8 per core), and an arena keeps the pages it
 * once used: V8's background compiler and GC threads and libuv's file-reading threads each grew one, and under the
 * bench's minute of mixed load at N = 1,000 that was 25–60 MB of the server's RSS for nothing. MALLOC_ARENA_MAX
 * caps them, but glibc reads it once, when the process starts. `npm start` sets it in its own command line
 * (package.json, unless already set); a process started some other way without it replaces itself (same PID, same
 * arguments) with one that has it, which is a second Node start: 80–100 ms of a 1 s cold start at N = 1,000.
 * Set MALLOC_ARENA_MAX yourself to choose another value, or to 0 to keep glibc's default; other C libraries (musl,
 * macOS, Windows) are left alone.
 */
export const MALLOC_ARENAS = '2';

export function fewerMallocArenas(env: NodeJS.ProcessEnv = process.env): void {
  if (env.MALLOC_ARENA_MAX || process.platform !== 'linux' || typeof process.execve !== 'function') return;
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  if (!header?.glibcVersionRuntime) return;
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], { ...env, MALLOC_ARENA_MAX: MALLOC_ARENAS });
}
