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
        // gzip 9 gains ~0.5% over 6 on large files at 4x the time (120 MB index: 13.4 s vs 3.1 s).
        gz(body, { level: body.byteLength > 2 * 1024 * 1024 ? 6 : zlib.Z_BEST_COMPRESSION }),
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
 * Brotli's top quality costs about a second per megabyte, and a large show publishes hundreds of megabytes
 * (N = 1,000 in bench/: 419 MB of text, 2,051 files). Measured on 3.6 MB of transcripts (40 files of ~90 KB):
 * q11 3.58 s → 34.8% of the input, q10 1.28 s → 35.5%, q9 0.77 s → 39.8%, q8 0.14 s → 39.8%; on 8 MB of text
 * q11 took 36.1 s and q5 0.65 s (+21% bytes). Small files, most of what a visitor loads, keep the maximum; larger
 * ones trade ~14% more bytes for a build that is many times faster.
 */
export function brotliQuality(bytes: number): number {
  if (bytes <= 32 * 1024) return zlib.BROTLI_MAX_QUALITY;
  if (bytes <= 2 * 1024 * 1024) return 8;
  return 5;
}

function kb(bytes: number): string {
  return `${Math.round(bytes / 1024)} KB`;
}
