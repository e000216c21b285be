/**
 * Filter for bench/isolate.ts's workerd wrapper: reads workerd's binary config (as Miniflare writes it to
 * workerd's stdin) and writes it back with the V8 flags given as arguments added to Config.v8Flags.
 *
 *   node bench/workerd-v8-flags.ts --max-old-space-size=128 < config.bin > patched.bin
 */
import { withV8Flags } from './lib/isolate.ts';

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
process.stdout.write(withV8Flags(Buffer.concat(chunks), process.argv.slice(2)));
