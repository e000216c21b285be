/**
 * Build step: writes foo.br and foo.gz beside every text file of the static output (strongly compressed, which is too
 * slow to do per request), so the server can answer compressed bytes straight from memory. A variant that
 * would not be smaller is not written. The server treats foo.br / foo.gz as foo's variants, never as documents.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import type { AstroIntegration } from 'astro';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text formats by extension; extensionless files under .well-known are JSON documents. */
const TEXT = /\.(html|json|xml|txt|md|srt|vtt|css|js|mjs|svg|webmanifest|yaml)$/i;
const MIN_BYTES = 512;

export interface PrecompressResult {
  files: number;
  bytesIn: number;
  bytesBr: number;
  bytesGz: number;
}

export function precompress(): AstroIntegration {
  return {
    name: 'precompress',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const result = await precompressDir(fileURLToPath(dir));
        logger.info(`${result.files} text files precompressed: ${kb(result.bytesIn)} → br ${kb(result.bytesBr)}, gzip ${kb(result.bytesGz)}`);
      },
    },
  };
}

export async function precompressDir(root: string): Promise<PrecompressResult> {
  const result: PrecompressResult = { files: 0, bytesIn: 0, bytesBr: 0, bytesGz: 0 };
  const files: string[] = [];
  const walk = async (dir: string, inWellKnown: boolean) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full, inWellKnown || entry.name === '.well-known');
      else if (entry.isFile() && (TEXT.test(entry.name) || (inWellKnown && !entry.name.includes('.')))) files.push(full);
    }
  };
  await walk(root, false);
  // A few at a time: brotli at quality 11 is CPU-bound, and the build machine has other work.
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      if ((await stat(file)).size < MIN_BYTES) continue;
      const body = await readFile(file);
      const [br, gzBody] = await Promise.all([
        brotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: brotliQuality(body.byteLength), [zlib.BROTLI_PARAM_SIZE_HINT]: body.byteLength } }),
        gz(body, { level: zlib.Z_BEST_COMPRESSION }),
      ]);
      result.files++;
      result.bytesIn += body.byteLength;
      if (br.byteLength < body.byteLength) {
        await writeFile(`${file}.br`, br);
        result.bytesBr += br.byteLength;
      }
      if (gzBody.byteLength < body.byteLength) {
        await writeFile(`${file}.gz`, gzBody);
        result.bytesGz += gzBody.byteLength;
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return result;
}

/**
 * Brotli's top quality costs about a second per megabyte; on a large show the search index alone is tens of
 * megabytes, and the benchmark measured 82 of a 95 s build spent here at N = 100. Large files get a quality that
 * compresses ~50x faster for ~20% more bytes; small documents keep the maximum.
 */
export function brotliQuality(bytes: number): number {
  if (bytes <= 32 * 1024) return zlib.BROTLI_MAX_QUALITY;
  // Per file, quality 10 is 2.6x faster than 11 for 1.6% more bytes (bench/RESULTS.md, N = 1,000).
  if (bytes <= 256 * 1024) return 10;
  if (bytes <= 2 * 1024 * 1024) return 9;
  return 5;
}

function kb(bytes: number): string {
  return `${Math.round(bytes / 1024)} KB`;
}
