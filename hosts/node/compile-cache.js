/**
 * Preloaded by `npm start` (node --import): turns on Node's compile cache before the entry module is loaded. A
 * .ts entry is otherwise compiled before any of its lines can turn the cache on, which loads Node's TypeScript
 * stripper (amaro, a WebAssembly module) into every process for that one file: +17 MB RSS for the life of the
 * server. With the cache warm, no module of the service needs the stripper. Plain JavaScript, so that nothing
 * has to be stripped to run it.
 */
import { enableCompileCache } from 'node:module';

enableCompileCache?.();
