import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContentOrThrow } from '../../content/load.ts';
import { searchDocuments } from '../bulk-documents.ts';
import { semanticArtifact } from './semantic.ts';
import { semanticOnThread } from './semantic-thread.ts';

const content = loadContentOrThrow(join(import.meta.dirname, '../../../content'), {});

const collect = async (documents: AsyncIterable<[string, string]>) => {
  const docs = new Map<string, string>();
  for await (const [path, body] of documents) docs.set(path, body);
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
});
