/**
 * `npm start`'s entry: turns on Node's compile cache before the service's modules are loaded, so every start after
 * the first reads their compiled code (and TypeScript already stripped) from disk. From main.ts itself the cache
 * came too late for the modules it imports statically: they are compiled before its first line runs. `npm start`
 * turns it on earlier still, before this file (compile-cache.js); here it is for `node hosts/node/start.ts`.
 */
import { enableCompileCache } from 'node:module';
import { glibcMallocSettings } from './glibc-malloc.ts';

glibcMallocSettings();
enableCompileCache?.();
const { main } = await import('./main.ts');
await main();
