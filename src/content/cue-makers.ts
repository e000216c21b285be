/**
 * What makes an episode's cues from its transcript's text: the parsers, the loader and the cues' cache encoding. A
 * build cache keyed by the transcript's digest names these besides it (src/build/code-identity.ts, cuesCodeIdentity).
 * A module of its own, so that naming them loads none of them.
 */
export const CUE_MAKERS = {
  sources: ['./srt.ts', './vtt.ts', './load.ts', './cues-codec.ts'].map((m) => new URL(m, import.meta.url)),
  packages: ['srt-parser-2'],
};
