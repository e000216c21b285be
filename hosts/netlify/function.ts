/**
 * The Netlify Functions (v2) entry: a Web Request in, a Response out. hosts/netlify/build.ts bundles it with the
 * route list (`config.path`) taken from the build's manifest and the API's routes, and deploys the function with
 * its copy of the build (netlify.toml: included_files).
 */
import { join } from 'node:path';
import { handle } from '../shared/function-host.ts';

interface NetlifyContext {
  ip?: string;
}

/** Where the deployed copy of the build sits: beside the bundle (set at bundle time), or DIST_DIR. */
declare const __CLIENT_DIR__: string | undefined;

export default async function netlify(request: Request, context: NetlifyContext = {}): Promise<Response> {
  const clientDir = process.env.DIST_DIR ? join(process.env.DIST_DIR, 'client') : typeof __CLIENT_DIR__ === 'string' ? join(process.cwd(), __CLIENT_DIR__) : undefined;
  return handle(request, context.ip ?? '', clientDir);
}
