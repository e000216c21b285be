/**
 * The Lunr index, built once at build time and published as /search/lunr-index.json. One index holds two kinds
 * of documents:
 *   - ref "<n>": transcript passage n of /search/passages.json, one field `text`;
 *   - ref "e<id>": the episode itself, fields title, description, guests, topics and chapters.
 * Offline apps load it with `lunr.Index.load` (plus the lunr-languages pack named in passages.json, if any).
 */
import lunr from 'lunr';
import { loadLanguage } from '../../../contract/search/language.ts';
import type { Passage } from '../../../contract/schemas/search-passages.ts';

export type SearchField = 'title' | 'description' | 'guests' | 'topics' | 'chapters' | 'text';

/**
 * Field boosts, chosen with test/search/relevance.test.ts, which measures them against the alternatives on the
 * sample podcast (MRR over 126 queries): these 0.996, every boost at 1 0.982, a title-heavy set (title 3,
 * topics 1) 0.970. Topics are the editors' own words for what an episode is about, so they weigh most, with
 * guest names. The title weighs less than the topics because stemming conflates title words with unrelated ones
 * ("engines" and "engineering" share a stem, and a heavy title boost sent "engineering" to the chess episode).
 * Description and chapter titles sit between those labels and the transcript, the baseline.
 */
export const FIELD_BOOSTS: Record<SearchField, number> = {
  title: 1.5,
  topics: 2,
  guests: 2,
  chapters: 1.5,
  description: 1.5,
  text: 1,
};

export interface IndexedEpisode {
  id: number;
  title: string;
  desc?: string;
  guests?: string[];
  topics?: string[];
  chapters?: Array<{ title: string }>;
}

export async function buildLunrIndex(
  episodes: IndexedEpisode[],
  passages: Passage[],
  language: string,
  boosts: Record<SearchField, number> = FIELD_BOOSTS,
): Promise<lunr.Index> {
  const lang = await loadLanguage(language);
  const builder = new lunr.Builder();
  lang.plugin.call(builder, builder);
  builder.ref('ref');
  for (const field of Object.keys(boosts) as SearchField[]) builder.field(field, { boost: boosts[field] });
  fixAverageFieldLengths(builder);

  for (const doc of indexedDocuments(episodes, passages)) builder.add(doc);
  return builder.build();
}

/**
 * Lunr averages a field's length over every document, including those where the field is empty. With passages
 * and episodes in one index, the average title would be a fraction of a word and BM25's length normalization
 * would crush every title match. The average is taken over the documents that have the field instead; the
 * scores are baked into the serialized index, so offline apps get the same ranking.
 */
function fixAverageFieldLengths(builder: lunr.Builder): void {
  const b = builder as unknown as {
    fieldLengths: Record<string, number>;
    averageFieldLength: Record<string, number>;
    calculateAverageFieldLengths: () => void;
  };
  b.calculateAverageFieldLengths = function () {
    const sum: Record<string, number> = {};
    const count: Record<string, number> = {};
    for (const [fieldRef, length] of Object.entries(b.fieldLengths)) {
      if (!length) continue;
      // A FieldRef string is "fieldName/docRef"; field names have no slash.
      const field = fieldRef.slice(0, fieldRef.indexOf('/'));
      sum[field] = (sum[field] ?? 0) + length;
      count[field] = (count[field] ?? 0) + 1;
    }
    b.averageFieldLength = Object.fromEntries(Object.keys(sum).map((f) => [f, sum[f]! / count[f]!]));
  };
}

/**
 * The documents the index holds: one per episode (ref `e<id>`, its metadata fields) and one per passage (ref = the
 * passage's position, its transcript text). Exported so the benchmark indexes exactly these in other engines.
 */
export function indexedDocuments(
  episodes: IndexedEpisode[],
  passages: Array<Pick<Passage, 'cues'>>,
): Array<{ ref: string } & Partial<Record<SearchField, string>>> {
  const docs: Array<{ ref: string } & Partial<Record<SearchField, string>>> = [...episodes]
    .sort((a, b) => a.id - b.id)
    .map((e) => ({
      ref: `e${e.id}`,
      title: e.title,
      description: e.desc ?? '',
      guests: (e.guests ?? []).join('. '),
      topics: (e.topics ?? []).join('. '),
      chapters: (e.chapters ?? []).map((c) => c.title).join('. '),
      text: '',
    }));
  passages.forEach((p, i) => docs.push({ ref: String(i), text: p.cues.map(([, text]) => text).join(' ') }));
  return docs;
}
