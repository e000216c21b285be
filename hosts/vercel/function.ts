/**
 * The Vercel Function entry (Node.js runtime, Web signature: `export default { fetch }`, the form @astrojs/vercel
 * also emits). hosts/vercel/build.ts bundles it into .vercel/output/functions/service.func beside a copy of the
 * build's documents; Vercel's CDN serves the rest of .vercel/output/static.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { handle } from '../shared/function-host.ts';

export default {
  fetch(request: Request): Promise<Response> {
    // Vercel's edge sets x-real-ip to the client's address (it overwrites what a client sends).
    const clientIp = request.headers.get('x-real-ip') ?? '';
    const clientDir = process.env.DIST_DIR ? join(process.env.DIST_DIR, 'client') : join(dirname(fileURLToPath(import.meta.url)), 'client');
    return handle(request, clientIp, clientDir);
  },
};
