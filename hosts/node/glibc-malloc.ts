/**
 * Two glibc malloc settings that the server's RSS depends on, which glibc reads once, when the process starts:
 *
 * - MALLOC_ARENA_MAX: glibc gives each thread that allocates its own arena (up to 8 per core), and an arena keeps
 *   the pages it once used: V8's background compiler and GC threads and libuv's file-reading threads each grew one,
 *   and under the bench's minute of mixed load at N = 1,000 that was 25–60 MB of RSS for nothing. 2 caps them.
 * - MALLOC_MMAP_THRESHOLD_: every index file the search engine loads is read into a buffer of 10–70 KB that is
 *   dropped once parsed, and its typed arrays (contract/search/one-buffer.ts) leave when the cache evicts them.
 *   From glibc's heap those left holes that it could not give back: after the same load its heap held ~100 MB for
 *   ~70 MB of live buffers. glibc's default threshold starts at 128 KB and rises to the largest block freed (so, in
 *   this server, soon past all of them); fixed at 32 KB, the larger blocks are mapped and unmapped on their own
 *   (memory harness, N = 1,000, three runs each: RSS after the load 288.6 / 302.4 / 293.0 MB with glibc's default;
 *   278.2 / 275.4 / 282.5 with 16 KB; 276.2 / 275.2 with 32 KB; 290.9 / 273.0 with 8 KB).
 *
 * `npm start` sets both in its own command line (package.json, unless already set); a process started some other
 * way without them replaces itself (same PID, same arguments) with one that has them, which is a second Node start:
 * 80–100 ms of a 1 s cold start at N = 1,000. Set either yourself to choose another value (MALLOC_ARENA_MAX=0: glibc's
 * default); other C libraries (musl, macOS, Windows) are left alone.
 */
export const MALLOC_SETTINGS = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '32768' } as const;

export function glibcMallocSettings(env: NodeJS.ProcessEnv = process.env): void {
  const missing = Object.entries(MALLOC_SETTINGS).filter(([name]) => !env[name]);
  if (!missing.length || process.platform !== 'linux' || typeof process.execve !== 'function') return;
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  if (!header?.glibcVersionRuntime) return;
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], { ...env, ...Object.fromEntries(missing) });
}
