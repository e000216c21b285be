import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { frameAt, mp3Info } from './mp3.ts';

/** A silent MPEG-2 layer III frame header: 16 kbit/s, 16 kHz, mono (72 * 16000 / 16000 = 72 bytes). */
function frame(): Uint8Array {
  const bytes = new Uint8Array(72);
  bytes.set([0xff, 0xf3, 0x28, 0xc4]);
  return bytes;
}

describe('mp3Info', () => {
  it('reads a frame header', () => {
    expect(frameAt(frame(), 0)).toEqual({ length: 72, samples: 576, sampleRate: 16000, bitrate: 16, channels: 1 });
    expect(frameAt(new Uint8Array([0xff, 0x00, 0, 0]), 0)).toBeUndefined();
  });

  it('sums the frames after an ID3v2 tag and skips stray bytes', () => {
    const id3 = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 5, 1, 2, 3, 4, 5]);
    const frames = Array.from({ length: 1000 }, frame);
    const bytes = new Uint8Array(id3.length + 72 * 1000 + 3);
    bytes.set(id3);
    frames.forEach((f, i) => bytes.set(f, id3.length + i * 72));
    const info = mp3Info(bytes);
    expect(info.frames).toBe(1000);
    expect(info.seconds).toBeCloseTo(36, 5);
    expect(info).toMatchObject({ sampleRate: 16000, channels: 1, bitrate: 16 });
  });

  it('measures a committed sample episode', () => {
    const info = mp3Info(readFileSync(resolve(import.meta.dirname, '../../content/audio/011-tides.mp3')));
    expect(Math.abs(info.seconds - 758)).toBeLessThan(2);
  });
});
