/**
 * What a query matched, kept once for all its hits and read per hit only for the few a page shows or /ask
 * re-ranks: which index terms an episode matched, its passages' scores and its postings. Computing these for every
 * matching episode (2,000 for a common word at N = 2,000) when a page shows ten was most of a query's garbage.
 *
 * Reading an episode again from the postings gives exactly what summing them gave (the same additions in the same
 * order), so a hit's terms and moments are as the ranking saw them.
 */
import { bestPassages } from './best-passages.ts';
import type { Posting } from './engine.ts';
import { pickMoments, type EpisodePostings } from './ask-understanding.ts';

/** A transcript posting read by a scored clause, with the clause's boost. */
export interface ReadPosting {
  term: string;
  posting: Posting;
  boost: number;
}

/** The episodes a scored lookup matched in the episodes' metadata, with their scores and the terms each matched. */
export interface ReadMetadata {
  matches: ReadonlyArray<{ id: number; score: number; terms: readonly string[] }>;
  /** Lunr's norm for the lookup's expansion (√ terms), and the clause's boost. */
  unit: number;
  boost: number;
}

export class QueryMatches {
  readonly postings: ReadPosting[] = [];
  readonly metadata: ReadMetadata[] = [];
  /**
   * /ask: every hit offers moments, chosen (pickMoments) from its best `moments` passages by the postings' scores
   * when the hit was not re-ranked; 0 for /api/search.
   */
  readonly moments: number;

  constructor(moments = 0) {
    this.moments = moments;
  }

  /** The transcript terms the episode matched, in the order the query read them. */
  terms(episode: number): string[] {
    const out: string[] = [];
    for (const r of this.postings) if (!out.includes(r.term) && indexOf(r.posting.episodes, episode) >= 0) out.push(r.term);
    return out;
  }

  /** The episode's metadata score (Σ lookups' boost × Lunr's score × unit, in the order ranking summed it). */
  doc(episode: number): number {
    let doc = 0;
    for (const m of this.metadata) {
      const match = m.matches.find((r) => r.id === episode);
      if (match) doc += m.boost * match.score * m.unit;
    }
    return doc;
  }

  /** The metadata terms the episode matched (for a description snippet), in the order the query read them. */
  docTerms(episode: number): string[] {
    const out: string[] = [];
    for (const m of this.metadata) {
      const match = m.matches.find((r) => r.id === episode);
      if (match) for (const t of match.terms) if (!out.includes(t)) out.push(t);
    }
    return out;
  }

  /** The episode's matched passages and their summed scores, [passage, score, ...] in the order first matched. */
  passages(episode: number): number[] {
    const flat: number[] = [];
    for (const r of this.postings) {
      const k = indexOf(r.posting.episodes, episode);
      if (k < 0) continue;
      const { at, passages, scores, idf } = r.posting;
      const weight = r.boost * idf;
      for (let i = at[k]!; i < at[k + 1]!; i++) {
        const p = passages[i]!;
        let j = 0;
        while (j < flat.length && flat[j] !== p) j += 2;
        if (j < flat.length) flat[j + 1]! += weight * scores[i]!;
        else flat.push(p, weight * scores[i]!);
      }
    }
    return flat;
  }

  /** The episode's moments, best first, for an /ask hit that was not re-ranked. */
  momentsOf(episode: number): number[] {
    return pickMoments(bestPassages(this.passages(episode), this.moments).map(([index, score]) => ({ index, score, terms: [] })));
  }

  /** /ask's re-ranking reads an episode's postings as term → [passage, score, ...] (ask-understanding.ts). */
  postingsOf(episode: number): EpisodePostings {
    const out = new Map<string, number[]>();
    for (const { term, posting } of this.postings) {
      const k = indexOf(posting.episodes, episode);
      if (k < 0) continue;
      const p: number[] = [];
      for (let i = posting.at[k]!; i < posting.at[k + 1]!; i++) p.push(posting.passages[i]!, posting.idf * posting.scores[i]!);
      out.set(term, p);
    }
    return out;
  }
}

/** Where an episode is in a posting's episodes (ascending, as published), or -1. */
function indexOf(episodes: Int32Array, episode: number): number {
  let lo = 0;
  let hi = episodes.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const e = episodes[mid]!;
    if (e === episode) return mid;
    if (e < episode) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
