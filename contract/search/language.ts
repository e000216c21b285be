/**
 * Which Lunr text pipeline a show's language gets, shared by the build (which indexes with it) and the handlers
 * (which must analyse queries the same way, and must register the same pipeline functions before Lunr can
 * deserialize the index).
 *
 * English (Lunr's own trimmer, stop words and Porter stemmer) is the default. A show whose language has a
 * word-based pack in lunr-languages gets that pack. Packs that need a word segmenter (ja, zh, th, hi, ta, te) are
 * not offered: their tokenizers are not serialized with the index, so offline apps could not reproduce them.
 */
import lunr from 'lunr';

type LunrPlugin = (lunrInstance: typeof lunr) => void;
type PackModule = { default: LunrPlugin };

/** Static import thunks, so that bundlers can see every pack and a process only loads the one it needs. */
const PACKS: Record<string, () => Promise<PackModule>> = {
  ar: () => import('lunr-languages/lunr.ar.js') as Promise<PackModule>,
  da: () => import('lunr-languages/lunr.da.js') as Promise<PackModule>,
  de: () => import('lunr-languages/lunr.de.js') as Promise<PackModule>,
  el: () => import('lunr-languages/lunr.el.js') as Promise<PackModule>,
  es: () => import('lunr-languages/lunr.es.js') as Promise<PackModule>,
  fi: () => import('lunr-languages/lunr.fi.js') as Promise<PackModule>,
  fr: () => import('lunr-languages/lunr.fr.js') as Promise<PackModule>,
  he: () => import('lunr-languages/lunr.he.js') as Promise<PackModule>,
  hu: () => import('lunr-languages/lunr.hu.js') as Promise<PackModule>,
  hy: () => import('lunr-languages/lunr.hy.js') as Promise<PackModule>,
  it: () => import('lunr-languages/lunr.it.js') as Promise<PackModule>,
  kn: () => import('lunr-languages/lunr.kn.js') as Promise<PackModule>,
  ko: () => import('lunr-languages/lunr.ko.js') as Promise<PackModule>,
  nl: () => import('lunr-languages/lunr.nl.js') as Promise<PackModule>,
  no: () => import('lunr-languages/lunr.no.js') as Promise<PackModule>,
  pl: () => import('lunr-languages/lunr.pl.js') as Promise<PackModule>,
  pt: () => import('lunr-languages/lunr.pt.js') as Promise<PackModule>,
  ro: () => import('lunr-languages/lunr.ro.js') as Promise<PackModule>,
  ru: () => import('lunr-languages/lunr.ru.js') as Promise<PackModule>,
  sa: () => import('lunr-languages/lunr.sa.js') as Promise<PackModule>,
  sv: () => import('lunr-languages/lunr.sv.js') as Promise<PackModule>,
  tr: () => import('lunr-languages/lunr.tr.js') as Promise<PackModule>,
  vi: () => import('lunr-languages/lunr.vi.js') as Promise<PackModule>,
};

/** BCP 47 primary subtags that share a pack under another name. */
const ALIASES: Record<string, string> = { nb: 'no', nn: 'no' };

export const DEFAULT_LANGUAGE = 'en';

/** A language tag's primary subtag, lower-cased ("pt-BR" → "pt"); '' for none. */
const primarySubtag = (tag: string | undefined) => (tag ?? '').toLowerCase().split('-')[0] ?? '';

/**
 * What an editor should know when the show's language has no pack (ja, zh, th, uk, cs, ...): it is searched with the
 * English pipeline. Words are whatever lies between spaces and hyphens, so a script written without spaces is found
 * only by whole runs, and English stop words and stems apply. Undefined for English and for languages with a pack.
 */
export function languageNote(tag: string | undefined): string | undefined {
  const primary = primarySubtag(tag);
  if (!primary || primary === DEFAULT_LANGUAGE || languageKey(tag) !== DEFAULT_LANGUAGE) return undefined;
  const unspaced = ['ja', 'zh', 'th', 'lo', 'km', 'my', 'bo'].includes(primary);
  return (
    `language "${tag}" has no word analysis of its own here (lunr-languages has no pack for it that works without a segmenter), ` +
    `so search reads it with the English pipeline: words are what lies between spaces and hyphens, without stop words or stems of its own` +
    (unspaced ? `; text written without spaces between words is found only by whole runs, so put spaces between words in transcripts and titles for search to find them` : '')
  );
}

/** The pack key for a language tag ("pt-BR" → "pt"), or "en" when lunr-languages has no usable pack for it. */
export function languageKey(tag: string | undefined): string {
  const primary = primarySubtag(tag);
  const key = ALIASES[primary] ?? primary;
  return key in PACKS ? key : DEFAULT_LANGUAGE;
}

/** What a language contributes: pipelines for a Builder, and the single steps the query analyser reuses. */
export interface LanguageSupport {
  key: string;
  /** Sets a Builder's index and search pipelines (Builder.use). */
  plugin: (this: lunr.Builder, builder: lunr.Builder) => void;
  trimmer: lunr.PipelineFunction;
  stopWordFilter: lunr.PipelineFunction;
}

const loaded = new Map<string, Promise<LanguageSupport>>();

/** Registers the language's pipeline functions with Lunr (once per process) and describes them. */
export function loadLanguage(key: string): Promise<LanguageSupport> {
  const k = key in PACKS ? key : DEFAULT_LANGUAGE;
  let pending = loaded.get(k);
  if (!pending) {
    pending = load(k);
    pending.catch(() => loaded.delete(k));
    loaded.set(k, pending);
  }
  return pending;
}

/**
 * The English pipeline's trimmer, which every language without a pack shares. Lunr's own trims \W, which is every
 * character beyond ASCII: "café" became `caf`, and a word in Cyrillic, Greek or Japanese (a show in Ukrainian or
 * Japanese falls back to this pipeline) was trimmed away whole, so nothing of the show could be found. Here only what
 * is neither a letter, a digit nor a combining mark is punctuation.
 * Lunr's trimmer also kept an apostrophe inside a word, so "the queen's pheromone" was indexed as `queen'` (the
 * stemmer's cut of "queen's") and a listener's "queen" never found it. A possessive or contracted 's goes with the
 * punctuation ("it's" is then the stop word "it"); other apostrophes stay ("o'clock", "don't"). Registered so that
 * the pipeline serializes; only the index pipeline runs it (and Analyzer#normalize, which queries go through): the
 * search pipeline a Lunr client loads stays Lunr's own stemmer.
 */
const englishTrimmer: lunr.PipelineFunction = (token) =>
  token.update((s) => {
    const word = s.replace(/^[^\p{L}\p{N}\p{M}]+/u, '').replace(/[^\p{L}\p{N}\p{M}]+$/u, '');
    return word.length > 2 && /[\p{L}\p{N}\p{M}]['\u2019]s$/u.test(word) ? word.slice(0, -2) : word;
  });
lunr.Pipeline.registerFunction(englishTrimmer, 'trimmer-en');

let stemmerSupport: Promise<void> | undefined;

async function load(key: string): Promise<LanguageSupport> {
  if (key === DEFAULT_LANGUAGE) {
    return {
      key,
      plugin(builder) {
        builder.pipeline.reset();
        builder.pipeline.add(englishTrimmer, lunr.stopWordFilter, lunr.stemmer);
        builder.searchPipeline.reset();
        builder.searchPipeline.add(lunr.stemmer);
      },
      trimmer: englishTrimmer,
      stopWordFilter: lunr.stopWordFilter,
    };
  }
  stemmerSupport ??= import('lunr-languages/lunr.stemmer.support.js').then((m) => (m as PackModule).default(lunr));
  await stemmerSupport;
  const languages = lunr as unknown as Record<string, (LanguageSupport['plugin'] & Record<string, lunr.PipelineFunction | undefined>) | undefined>;
  if (!languages[key]) (await PACKS[key]!()).default(lunr);
  const pack = languages[key]!;
  const identity: lunr.PipelineFunction = (token) => token;
  const afterTrimmer = AFTER_TRIMMER[key];
  const trimmer = pack.trimmer ?? identity;
  return {
    key,
    plugin(builder) {
      pack.call(builder, builder);
      if (afterTrimmer) builder.pipeline.after(trimmer, afterTrimmer);
    },
    trimmer: afterTrimmer ? (token, i, tokens) => {
      const trimmed = trimmer(token, i, tokens);
      return trimmed && afterTrimmer(trimmed as lunr.Token, i, tokens);
    } : trimmer,
    stopWordFilter: pack.stopWordFilter ?? identity,
  };
}

/**
 * French and Italian write an elided article or pronoun onto the next word ("l’abeille", "d'eau", "dell'acqua"), and
 * their packs' trimmers keep the apostrophe inside the word: "abeille" never found "l’abeille". The elided forms
 * (Lucene's ElisionFilter lists) are cut off, in the index pipeline after the trimmer and in queries alike; a word
 * that only starts like one stays whole ("aujourd'hui").
 */
const AFTER_TRIMMER: Record<string, lunr.PipelineFunction> = {};
for (const [key, articles] of [
  ['fr', 'l m t qu n s j d c jusqu quoiqu lorsqu puisqu'],
  ['it', 'c l all dall dell nell sull coll pell gl agl dagl degl negl sugl un m t s v d'],
] as const) {
  const elided = new RegExp(`^(?:${articles.split(' ').join('|')})['\u2019](?=.)`, 'u');
  const fn: lunr.PipelineFunction = (token) => token.update((s) => s.replace(elided, ''));
  lunr.Pipeline.registerFunction(fn, `elision-${key}`);
  AFTER_TRIMMER[key] = fn;
}
/**
 * Russian prints ё as е almost everywhere ("еще" for "ещё", "елка" for "ёлка"), and a listener types it so: both
 * are read as е, in the index and in queries.
 */
const foldYo: lunr.PipelineFunction = (token) => token.update((s) => s.replaceAll('ё', 'е'));
lunr.Pipeline.registerFunction(foldYo, 'fold-yo-ru');
AFTER_TRIMMER.ru = foldYo;
