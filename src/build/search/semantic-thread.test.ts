import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configureParseCache, parseCacheUsage } from '../../content/parse-cache.ts';
import { loadContentOrThrow } from '../../content/load.ts';
import { searchDocuments } from '../bulk-documents.ts';
import { semanticArtifact } from './semantic.ts';
import { semanticOnThread } from './semantic-thread.ts';

const content = loadContentOrThrow(join(import.meta.dirname, '../../../content'), {});

const collect = async (documents: AsyncIterable<readonly [string, string | Uint8Array, ...unknown[]]>) => {
  const docs = new Map<string, string>();
  for await (const [path, body] of documents) docs.set(path, String(body));
  return docs;
};

describe('the semantic artifact on a thread of its own', () => {
  it('is the artifact made on the calling thread, value for value', async () => {
    const thread = await semanticOnThread(content);
    expect(await thread.result).toEqual(await semanticArtifact(content));
    await thread.stop();
  });

  it('leaves the search documents as they are, byte for byte', async () => {
    const onThread = await collect(searchDocuments(content, { semanticThread: true }));
    const here = await collect(searchDocuments(content));
    expect([...onThread.keys()].sort()).toEqual([...here.keys()].sort());
    for (const [path, body] of here) expect(onThread.get(path), path).toBe(body);
    expect(JSON.parse(onThread.get('/search/semantic.json')!).related).toBeTypeOf('object');
  });

  it('ends when the caller stops it, and its result says so', async () => {
    const thread = await semanticOnThread(content);
    await thread.stop();
    await expect(thread.result).rejects.toThrow(/exited/);
  });

  it('keeps WordNet’s part in the build’s cache, and tells the calling thread it used it (so it is not pruned)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'semantic-thread-cache-'));
    configureParseCache(dir);
    try {
      const thread = await semanticOnThread(content);
      const made = await thread.result;
      await thread.stop();
      const entries = readdirSync(dir).filter((name) => name.endsWith('.json'));
      expect(entries).toHaveLength(1);
      expect(parseCacheUsage().used).toContain(entries[0]!.split('.')[0]);
      configureParseCache(undefined);
      expect(made).toEqual(await semanticArtifact(content));
    } finally {
      configureParseCache(undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
