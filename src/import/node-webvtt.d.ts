// node-webvtt ships no type declarations; this is the part of its API the importer uses.
declare module 'node-webvtt' {
  interface Cue {
    identifier: string;
    start: number;
    end: number;
    text: string;
    styles: string;
  }
  interface ParseResult {
    valid: boolean;
    cues: Cue[];
    errors: unknown[];
  }
  const webvtt: { parse(input: string, options?: { strict?: boolean; meta?: boolean }): ParseResult };
  export default webvtt;
}
