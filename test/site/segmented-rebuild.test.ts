/**
 * The transcript index in segments of consecutive episodes (src/build/search/sharded-index.ts, segmentSizes): a
 * rebuild that adds an episode links the shards of a segment it leaves unchanged from the previous build
 * (src/integration/linked-files.ts) and makes only the last segment's, and every file is still the same, byte for
 * byte, as in a build of the same content from scratch. The sample has 12 episodes with a transcript, one segment;
 * this show has 17, then 18: segments of 16 and 1, then of 16 and 2.
 */
import { cpSync, linkSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, published, removeBuild } from '../helpers/build.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const cleanup: Array<() => void> = [];
afterAll(() => {
  for (const undo of cleanup.reverse()) undo();
});

/** Episode `id` of this show: the sample's 13th as a template, with the transcript of sample episode `from`. */
function addEpisode(content: string, id: number, from: string): void {
  const slug = `${String(id).padStart(3, '0')}-more`;
  const template = readFileSync(join(content, 'episodes/013-chess.md'), 'utf8');
  writeFileSync(
    join(content, `episodes/${slug}.md`),
    template
      .replace(/^id: 13$/m, `id: ${id}`)
      .replace(/^title: .*$/m, `title: "More, part ${id}"`)
      .replace(/^date: .*$/m, `date: 2026-01-${String(id).padStart(2, '0')}`)
      .replaceAll('013-chess', slug)
      .replace(/^audioFile: .*$/m, `$&\nsrtFile: ${slug}.srt`),
  );
  cpSync(join(content, 'audio/013-chess.mp3'), join(content, `audio/${slug}.mp3`));
  cpSync(join(content, `transcripts/${from}.srt`), join(content, `transcripts/${slug}.srt`));
}

type Segments = Array<{ path: string; first: string[] }>;
const segmentsOf = (dist: string): Segments =>
  (JSON.parse(readFileSync(join(dist, 'client/search/lunr-index.json'), 'utf8')) as { layout: { shards: { segments: Segments } } }).layout.shards.segments;

describe('a rebuild after adding an episode to a show of two segments', () => {
  let first: Segments = [];
  let again: Segments = [];
  let dist = '';
  let linked = new Set<number>();
  let rebuiltFiles = new Map<string, Buffer>();
  let scratchFiles = new Map<string, Buffer>();

  beforeAll(async () => {
    const content = mkdtempSync(join(tmpdir(), 'segmented-content-'));
    cleanup.push(() => rmSync(content, { recursive: true, force: true }));
    cpSync(join(ROOT, 'content'), content, { recursive: true });
    const transcripts = readdirSync(join(content, 'transcripts')).filter((f) => f.endsWith('.srt')).map((f) => f.slice(0, -4)).sort();
    for (let id = 14; id <= 18; id++) addEpisode(content, id, transcripts[id % transcripts.length]!);

    dist = await buildSite({ name: 'segmented', env: { CONTENT_DIR: content } });
    cleanup.push(() => removeBuild(dist));
    first = segmentsOf(dist);
    const kept = join(`${dist}-cache`, 'linked-files');
    linked = new Set(readdirSync(kept).map((name) => statSync(join(kept, name)).ino));
    // Each kept file held by a link of the test's own, so that the rebuild's pruning frees no inode that a file it
    // creates could then be given (a new shard would look linked from the last build).
    const pins = mkdtempSync(join(dirname(dist), 'segmented-pins-'));
    cleanup.push(() => rmSync(pins, { recursive: true, force: true }));
    for (const name of readdirSync(kept)) linkSync(join(kept, name), join(pins, name));

    addEpisode(content, 19, transcripts[0]!);
    await buildSite({ name: 'segmented', env: { CONTENT_DIR: content }, inPlace: true });
    again = segmentsOf(dist);
    rebuiltFiles = published(dist);

    const fresh = await buildSite({ name: 'segmented-scratch', env: { CONTENT_DIR: content } });
    cleanup.push(() => removeBuild(fresh));
    scratchFiles = published(fresh);
  }, 400_000);

  it('cuts the index into a segment of 16 episodes and one of the rest', () => {
    expect(first.length).toBe(2);
    expect(again.length).toBe(2);
    // The first segment is the same episodes, so the same shards at the same paths; the second is new.
    expect(again[0]).toEqual(first[0]);
    expect(again[1]!.path).not.toBe(first[1]!.path);
  });

  it("links the unchanged segment's shards from the previous build and makes the new one's", () => {
    const inode = (path: string) => statSync(join(dist, 'client', path)).ino;
    const shard = (segment: { path: string }, n: number) => segment.path.replace('{n}', String(n));
    expect(first[0]!.first.length).toBeGreaterThan(1);
    first[0]!.first.forEach((_, n) => expect(linked.has(inode(shard(again[0]!, n))), shard(again[0]!, n)).toBe(true));
    again[1]!.first.forEach((_, n) => expect(linked.has(inode(shard(again[1]!, n))), shard(again[1]!, n)).toBe(false));
    // The previous build's second segment is gone.
    expect(rebuiltFiles.has(shard(first[1]!, 0))).toBe(false);
  });

  it('publishes every file as a build from scratch does', () => {
    expect([...rebuiltFiles.keys()].sort()).toEqual([...scratchFiles.keys()].sort());
    const differ = [...scratchFiles].filter(([path, body]) => !rebuiltFiles.get(path)?.equals(body)).map(([path]) => path);
    expect(differ).toEqual([]);
  });
});
