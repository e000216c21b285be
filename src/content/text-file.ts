/**
 * Content files are UTF-8. Read as UTF-8, a file saved in another encoding (Windows-1252 from an older editor or a
 * transcription tool) turns every accented letter and curly quote into U+FFFD, and the show published "caf� cr�me"
 * on its pages, feed, transcripts and search without a word. The check is a scan for U+FFFD in the decoded text
 * (cheap beside the decoding), and only then a strict decode to find the line.
 */
import { readFileSync } from 'node:fs';

export class NotUtf8Error extends Error {
  readonly code = 'not_utf8';
}

const strict = new TextDecoder('utf-8', { fatal: true });

/** The file's text; a NotUtf8Error naming the first line that is not UTF-8. */
export function readUtf8(path: string): string {
  const text = readFileSync(path, 'utf8');
  if (!text.includes('\uFFFD')) return text;
  const bytes = readFileSync(path);
  let line = 1;
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x0a) continue;
    try {
      strict.decode(bytes.subarray(start, i));
    } catch {
      throw new NotUtf8Error(`line ${line} is not UTF-8 text (an accented letter or a curly quote saved as Windows-1252 or Latin-1, perhaps): save the file as UTF-8`);
    }
    line++;
    start = i + 1;
  }
  // Every line is UTF-8: the file spells U+FFFD itself.
  return text;
}
