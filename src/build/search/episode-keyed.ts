/**
 * An object keyed by episode id, as Lunr's serialized postings are (`{ "12": {…}, "907": {…} }`), in a compact form.
 * V8 keeps an object's integer keys in an array as long as the largest key unless that is far beyond what it already
 * holds: a posting of episodes 5 and 900 took ~11 KB. The top index has one such object per term and field, and at
 * 1,000 episodes they were 161 MB of the build's search thread (a heap snapshot), growing with the show's size twice
 * over (more terms, longer arrays). An object made by JSON.parse keeps sparse integer keys in a dictionary instead,
 * and stays so when those keys are assigned. Measured on Node 24 (48,150 postings of 1-30 episodes among 1,000): 411
 * MB and 573 ms made key by key, 41 MB and 161 ms so; among 2,000, 669 MB and 994 ms against 41 MB and 149 ms.
 */
export function episodeKeyed<T>(entries: ReadonlyArray<readonly [episode: number, value: T]>): Record<string, T> {
  for (const [episode] of entries) if (!Number.isSafeInteger(episode) || episode < 0) throw new RangeError(`not an episode id: ${episode}`);
  const refs = JSON.parse(`{${entries.map(([episode]) => `"${episode}":0`).join(',')}}`) as Record<string, T>;
  for (const [episode, value] of entries) refs[episode] = value;
  return refs;
}
