/**
 * The public description of the query syntax and snippet marking, for docs.md (src/build/docs-extras.ts passes
 * it to the docs generator as `searchSyntax`). Its limits are defined here and imported by
 * functions/search (query.ts, snippet.ts), so the description and the code cannot drift;
 * test/search/search-api.test.ts checks every example here against the running service.
 */
/** More distinct words than this add cost without changing which episodes rank first. */
export const MAX_TERMS = 32;
/** `a*` would expand to a large share of the vocabulary; shorter explicit prefixes are read as plain words. */
export const MIN_PREFIX = 2;
/** Each prefix expands to many index terms; past this many, further `word*` are read as plain words. */
export const MAX_PREFIXES = 5;
/**
 * Only this many characters of a query are read (a whole word is never cut in two): 32 distinct words fit many
 * times over, and the rest, which could change nothing, would still cost a pass over every character.
 */
export const MAX_QUERY_CHARS = 1000;
/** The implicit prefix on the last word starts at three characters ("cry" but not "cr"). */
export const MIN_AUTO_PREFIX = 3;
/** The longest snippet a result carries, in characters. */
export const SNIPPET_MAX_LENGTH = 240;

export const SEARCH_SYNTAX_DOC = `### Query syntax

\`q\` (and \`query\` on /ask) is plain text. Nothing typed there is an error: characters that search engines
usually treat as syntax are read as word breaks, except for these operators:

| You type | It finds |
|---|---|
| \`sourdough hydration\` | episodes with any of the words; more of them, and rarer ones, rank higher |
| \`+hydration\` | only episodes that contain the word (in the title, description or transcript) |
| \`-oven\` | only episodes that do not contain the word |
| \`ferm*\` | words starting with \`ferm\` (at least ${MIN_PREFIX} characters before the \`*\`) |
| \`"starter culture"\` | the quoted words as ordinary words (there is no exact-phrase search) |

- Words match by their stem, ignoring case and common words: \`starters\` finds "starter", \`the\` finds nothing.
- An episode's score is the BM25 score of its title, topics, guests, description and chapters (weighted by field),
  plus its best transcript passage's, half its second best's and a quarter of its third's; a passage scores the
  sum of its words' BM25 scores, with statistics of the whole show. The sum is divided by the square root of the
  index terms the query matched, each counted by its weight squared (a typed word 1, a prefix's completions while
  typing 0.5): that changes no order, so compare scores within one response only.
- The last word also matches as a prefix while you type: \`cryp\` finds "cryptography" (from ${MIN_AUTO_PREFIX}
  characters; a trailing space ends the word). A last word that is a word of the index as it is (\`bread\`) is
  searched as typed, and a prefix so short that it starts a large share of the vocabulary waits for the next letter.
- When nothing matches and a word appears in no episode, the query is retried allowing one typo in each such word
  of 4 or more letters: \`cryptograhpy\` finds "cryptography".
- A query made only of exclusions (\`-oven\`) has nothing to subtract from, so its words are searched as ordinary
  words.
- \`~\`, \`^\`, \`:\` and other punctuation separate words (\`title:bread\` searches for "title" and "bread"), except a
  colon between digits: \`3:30\` is one word, as the transcripts have it.
- Only the first ${MAX_TERMS} distinct words are used, and at most ${MAX_PREFIXES} of them as \`prefix*\`; a very
  short \`prefix*\` on a large show matches the first few thousand words that start with it. Of a query longer than
  ${MAX_QUERY_CHARS} characters, the whole words within the first ${MAX_QUERY_CHARS} are read and the rest is ignored (not an error).

### How /ask differs from /api/search

/api/search is predictable: it finds the words as typed (by their stem), with the operators above, and nothing
else. /ask takes a question in plain language and tries to understand it, so the listener's words need not be the
speakers':

- Question words and filler ("which episode talks about ...", "is it true that ...") are dropped, and operators are
  not interpreted.
- Each remaining word also looks for related words that the show itself uses: synonyms, derived forms, broader
  and narrower words from WordNet 3.1, and words that keep occurring together in the show's transcripts ("snooze"
  also finds "nap", "tart" finds "sour"). These are computed when the site is built (/search/semantic.json) and
  always weigh less than the words as typed.
- Episodes are ranked by their best-matching transcript passages (windows of about 30–60 seconds); among an
  episode's passages, the moment preferred is the one that holds more of the question's ideas, close together,
  with its neighbouring passages and its chapter title as weaker evidence; for a question about the listener ("can
  I ...", "my loaf"), one where the speaker talks to the listener ("you can ...").
- An episode without a transcript is still placed at a moment: the chapter whose title best matches the question,
  or the chapter that the matching sentence of its description speaks of.
- When nothing matches, a word that appears in no episode gets the same typo-tolerant retry as /api/search, and
  the last word is also tried as a prefix.

### Snippets and timestamps

\`snippet\` is one or two sentences (at most about ${SNIPPET_MAX_LENGTH} characters; \`…\` marks a cut) from the
result's best-matching transcript passage, or from its description when no passage matches. Matched words are
wrapped in guillemets: \`«hydration»\`. The marks are plain characters (U+00AB and U+00BB), safe in JSON and in
HTML once escaped as usual; any « or » in the source text appears as \`"\`, so a guillemet is always a mark. To
highlight, escape the snippet, then replace \`«\` and \`»\` with your own markup.

\`start\` (seconds) and \`timestamp\` (HH:MM:SS) tell where the snippet's sentence begins, and \`url\` opens the
episode there (\`?t=SECONDS\`). A result without a matching passage (an episode without a transcript, say) starts
at the chapter whose title best matches the words, if any does; else, when the words are in a sentence of its
description (the snippet), at the chapter that sentence speaks of (the title sharing most of its words); otherwise
it has no \`start\` or \`timestamp\`.
`;
