/**
 * Imported first by any browser script that builds zod schemas (the search engine checks the index's layout with
 * them). zod probes at schema creation whether it may compile validators with new Function(''): under the site's
 * CSP (no 'unsafe-eval') the probe is refused and reported as a violation, though zod catches the error. Without
 * the probe zod validates as it does anyway where eval is refused. It must run before the schemas' modules do,
 * hence a module of its own, imported ahead of them.
 */
import { config } from 'zod';

config({ jitless: true });
