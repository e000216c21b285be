/**
 * Bundles a function entry into one ES module for a Node-runtime platform, so the platform deploys it as is
 * (no TypeScript, no node_modules). CommonJS dependencies (lunr, node-redis) get a `require` for Node built-ins.
 */
import { build } from 'esbuild';

export async function bundleFunction(entry: string, outfile: string, define: Record<string, string> = {}): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    define,
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    logLevel: 'warning',
    legalComments: 'none',
  });
}
