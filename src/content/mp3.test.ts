import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimateMp3, frameAt, id3Size, mp3Info, MP3_HEAD_BYTES } from './mp3.ts';

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

describe('estimateMp3', () => {
  it('reads the frame count of a LAME Xing/Info header: every sample episode within a second of its measured length', () => {
    for (const name of ['001-sourdough.mp3', '011-tides.mp3', '013-chess.mp3']) {
      const bytes = readFileSync(resolve(import.meta.dirname, '../../content/audio', name));
      const start = id3Size(bytes);
      const estimate = estimateMp3(bytes.subarray(start, start + MP3_HEAD_BYTES), bytes.length - start);
      expect(Math.abs(estimate!.seconds - mp3Info(bytes).seconds), name).toBeLessThan(1);
    }
  });

  it('takes a constant bit rate over the bytes when there is no such header, and finds no audio in text', () => {
    const bytes = new Uint8Array(72 * 1000);
    for (let i = 0; i < 1000; i++) bytes.set(frame(), i * 72);
    expect(estimateMp3(bytes.subarray(0, MP3_HEAD_BYTES), bytes.length)!.seconds).toBeCloseTo(36, 5);
    expect(estimateMp3(new TextEncoder().encode('TODO upload real audio'), 22)).toBeUndefined();
  });
});
