/**
 * The playing time of an MP3, measured from its frames: every MPEG audio frame header says how many samples it
 * holds and at what rate, so the length is exact for constant and variable bit rates alike, without a decoder
 * or an external tool. An ID3v2 tag at the start, a Xing/Info frame (no audio) and an ID3v1 tag are skipped.
 */

const BITRATES: Record<string, number[]> = {
  // [version 1 or 2][layer 1..3], kbit/s by index 1..14
  '1-1': [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '1-2': [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1-3': [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '2-1': [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  '2-2': [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  '2-3': [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const SAMPLE_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

export interface Mp3Frame {
  /** Bytes in the frame, header included. */
  length: number;
  samples: number;
  sampleRate: number;
  /** kbit/s */
  bitrate: number;
  channels: 1 | 2;
}

/** The frame header at offset, or undefined when there is none. */
export function frameAt(bytes: Uint8Array, offset: number): Mp3Frame | undefined {
  if (offset + 4 > bytes.length) return undefined;
  const b1 = bytes[offset + 1]!;
  const b2 = bytes[offset + 2]!;
  const b3 = bytes[offset + 3]!;
  if (bytes[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) return undefined;
  const versionBits = (b1 >> 3) & 3; // 3: MPEG 1, 2: MPEG 2, 0: MPEG 2.5
  const layerBits = (b1 >> 1) & 3; // 3: layer I, 2: layer II, 1: layer III
  if (versionBits === 1 || layerBits === 0) return undefined;
  const layer = 4 - layerBits;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return undefined;
  const v1 = versionBits === 3;
  const bitrate = BITRATES[`${v1 ? 1 : 2}-${layer}`]![bitrateIndex - 1]!;
  const sampleRate = SAMPLE_RATES[versionBits]![rateIndex]!;
  const padding = (b2 >> 1) & 1;
  let length: number;
  let samples: number;
  if (layer === 1) {
    samples = 384;
    length = (Math.floor((12 * bitrate * 1000) / sampleRate) + padding) * 4;
  } else if (layer === 2 || v1) {
    samples = 1152;
    length = Math.floor((144 * bitrate * 1000) / sampleRate) + padding;
  } else {
    samples = 576;
    length = Math.floor((72 * bitrate * 1000) / sampleRate) + padding;
  }
  return { length, samples, sampleRate, bitrate, channels: (b3 >> 6) === 3 ? 1 : 2 };
}

export interface Mp3Info {
  seconds: number;
  frames: number;
  sampleRate: number;
  channels: 1 | 2;
  /** Mean bit rate over the audio frames, kbit/s. */
  bitrate: number;
}

export function mp3Info(bytes: Uint8Array): Mp3Info {
  // ID3v2: "ID3", version (2), flags (1), size (4 bytes, 7 bits each), plus a 10-byte footer when flagged.
  let offset = id3Size(bytes);
  let frames = 0;
  let samples = 0;
  let audioBytes = 0;
  let first: Mp3Frame | undefined;
  while (offset + 4 <= bytes.length) {
    const frame = frameAt(bytes, offset);
    // A frame must be followed by another frame or the end of the file (or a tag): otherwise the sync was a
    // coincidence in other data, and the search goes on one byte further.
    const next = frame ? offset + frame.length : 0;
    if (!frame || (next + 4 <= bytes.length && !frameAt(bytes, next) && !isTag(bytes, next))) {
      offset++;
      continue;
    }
    if (!first) {
      first = frame;
      if (isInfoFrame(bytes, offset, frame)) {
        offset = next;
        continue;
      }
    }
    frames++;
    samples += frame.samples;
    audioBytes += frame.length;
    offset = next;
  }
  const seconds = first ? samples / first.sampleRate : 0;
  return {
    seconds,
    frames,
    sampleRate: first?.sampleRate ?? 0,
    channels: first?.channels ?? 1,
    bitrate: seconds ? (audioBytes * 8) / seconds / 1000 : 0,
  };
}

/** Seconds of audio in an MP3. */
export function mp3Duration(bytes: Uint8Array): number {
  return mp3Info(bytes).seconds;
}

/** Bytes of an MP3's start that estimateMp3 needs: its ID3v2 tag's header, then this much past the tag. */
export const MP3_HEAD_BYTES = 16 * 1024;

/** The size of an ID3v2 tag at the start (0 when there is none): where the audio starts. */
export function id3Size(bytes: Uint8Array): number {
  if (!(bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33 && bytes.length >= 10)) return 0;
  const size = ((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f);
  return 10 + size + (bytes[5]! & 0x10 ? 10 : 0);
}

/**
 * An MP3's playing time from its first frames alone (`head`: the bytes from where the audio starts, `audioBytes`:
 * how many there are to the end), or undefined when they hold no MPEG audio frame: the frame count a Xing or Info
 * header gives (LAME writes one), else the bit rate of a constant-rate stream. Reading the whole file (mp3Info)
 * is exact, and too slow to do for every episode of a large show at every build.
 */
export function estimateMp3(head: Uint8Array, audioBytes: number): { seconds: number } | undefined {
  for (let offset = 0; offset + 4 <= head.length; offset++) {
    const frame = frameAt(head, offset);
    if (!frame) continue;
    const next = offset + frame.length;
    // As in mp3Info: a sync must be followed by another frame, or it was a coincidence in other data.
    if (next + 4 <= head.length && !frameAt(head, next) && !isTag(head, next)) continue;
    const tag = String.fromCharCode(...head.subarray(offset + 4, offset + Math.min(frame.length, 48)));
    const at = Math.max(tag.indexOf('Xing'), tag.indexOf('Info'));
    if (at >= 0) {
      const base = offset + 4 + at;
      const flags = ((head[base + 4]! << 24) | (head[base + 5]! << 16) | (head[base + 6]! << 8) | head[base + 7]!) >>> 0;
      if (flags & 1) {
        const frames = ((head[base + 8]! << 24) | (head[base + 9]! << 16) | (head[base + 10]! << 8) | head[base + 11]!) >>> 0;
        return { seconds: (frames * frame.samples) / frame.sampleRate };
      }
    }
    return { seconds: ((audioBytes - offset) * 8) / (frame.bitrate * 1000) };
  }
  return undefined;
}

function isTag(bytes: Uint8Array, offset: number): boolean {
  const tag = String.fromCharCode(...bytes.subarray(offset, offset + 3));
  return tag === 'TAG' || tag === 'ID3' || tag === 'APE';
}

/** A Xing, Info or VBRI header frame: it describes the stream and carries no audio. */
function isInfoFrame(bytes: Uint8Array, offset: number, frame: Mp3Frame): boolean {
  const text = String.fromCharCode(...bytes.subarray(offset + 4, offset + Math.min(frame.length, 48)));
  return /Xing|Info|VBRI/.test(text);
}
