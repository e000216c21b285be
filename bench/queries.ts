/**
 * The fixed query set, drawn (seeded) from the corpus's own vocabulary, so every engine and every endpoint is
 * asked the same questions and a rerun asks them again. The mix is stated in RESULTS.md:
 *   - 35% one content word, rank log-uniform over the vocabulary (frequent through rare);
 *   - 20% two such words, 10% three;
 *   - 10% one of the 100 most frequent content words (long posting lists: the slow end);
 *   - 10% a guest's surname (a rare proper noun), 15% an episode's topic.
 * The last word of a search is typed without a trailing space, so /api/search also expands it as a prefix,
 * as it does for a listener typing.
 */
import { rng, type Corpus } from './corpus.ts';

export interface QuerySet {
  search: string[];
  ask: string[];
  /** A query known to match (the first episode's topic), for the cold-start request and sanity checks. */
  probe: string;
  mix: string;
}

const ASK_TEMPLATES = [
  (a: string) => `which episode talks about ${a}?`,
  (a: string, b: string) => `what did they say about ${a} and ${b}`,
  (a: string) => `where is ${a} explained`,
  (a: string, b: string) => `is there an episode on ${a} or ${b}?`,
  (a: string) => `who talked about ${a}`,
];

export function makeQueries(corpus: Pick<Corpus, 'words' | 'firstContentRank' | 'meta'>, count = 200, seed = 7): QuerySet {
  const random = rng(seed);
  const { words, firstContentRank: first, meta } = corpus;
  const logUniform = () => words[first + Math.floor(Math.exp(random() * Math.log(words.length - first)))]!;
  const frequent = () => words[first + Math.floor(random() * 100)]!;
  const episode = () => meta[Math.floor(random() * meta.length)]!;
  const one = (): string => {
    const r = random();
    if (r < 0.35) return logUniform();
    if (r < 0.55) return `${logUniform()} ${logUniform()}`;
    if (r < 0.65) return `${logUniform()} ${logUniform()} ${logUniform()}`;
    if (r < 0.75) return frequent();
    if (r < 0.85) return episode().guest.split(' ')[1]!;
    const e = episode();
    return e.topics[Math.floor(random() * e.topics.length)]!;
  };
  const search = Array.from({ length: count }, one);
  const ask = Array.from({ length: count }, () => {
    const template = ASK_TEMPLATES[Math.floor(random() * ASK_TEMPLATES.length)]!;
    const a = random() < 0.5 ? episode().topics[0]! : logUniform();
    return template(a, logUniform());
  });
  return {
    search,
    ask,
    probe: meta[0]!.topics[0]!,
    mix: '35% one word (log-uniform rank), 20% two, 10% three, 10% top-100 content word, 10% guest surname, 15% episode topic; ask: 5 question templates over topics and words',
  };
}
