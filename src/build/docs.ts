/**
 * /docs.md (developer docs) and /AGENTS.md (agent integration guide), generated from the content, the error
 * code table and the modules that own each surface, so the docs cannot drift from the behaviour.
 */
import type { LoadedContent } from '../content/load.ts';
import { ERROR_CODES } from '../../contract/errors.ts';
import { LIMITS } from '../../contract/schemas/search.ts';
import { siteUrls } from './urls.ts';

export interface DocsExtras {
  /** Query syntax and snippet marking, from the search module. */
  searchSyntax?: string;
  /** MCP tools: name and description, from the tool registry. */
  mcpTools?: Array<{ name: string; description: string }>;
  /** MCP resources, prompts and the in-chat player (markdown list items), from their registries. */
  mcpMore?: string[];
  /** OAuth-tier error codes, from the OAuth module. */
  oauthErrors?: Array<{ status: number; code: string; when: string }>;
  /** Whole sections other modules own (optional credentials, tips), placed before the error table. */
  sections?: string[];
}

export function buildDocsMd(content: LoadedContent, extras: DocsExtras = {}): string {
  const { show, episodes } = content;
  const u = siteUrls(show);
  const sampleEpisode = episodes[0];
  const errorRows = Object.entries(ERROR_CODES).map(([code, { status, message }]) => `| ${status} | \`${code}\` | ${message} |`);
  const oauthRows = (extras.oauthErrors ?? []).map((e) => `| ${e.status} | \`${e.code}\` | ${e.when} |`);
  return `# ${show.title} — developer documentation

Base URL: ${u.base}

Everything here is public and read-only. Responses are JSON unless stated otherwise. Every response carries the
rate-limit headers; errors use one envelope. Machine-readable descriptions: [OpenAPI 3.1](${u.openapi}) and the
[API catalog](${u.apiCatalog}) (RFC 9727).

## Endpoints

| Method | Path | What it does |
|---|---|---|
| GET | [/episodes.json](${u.episodesJson}) | Every episode (contract Episode), sorted by id ascending |
| GET | [/search-index.json](${u.searchIndexJson}) | Episode id → title, description and transcript text |
| GET | [/search/lunr-index.json](${u.lunrIndex}) | Prebuilt Lunr 2 index for offline search: episode metadata and where the transcript shards are (see below) |
| GET | [/search/passages.json](${u.passages}) | Where the transcript passages are: chunk files of each episode's passages (see below) |
| GET | [/rss.xml](${u.rss}) | RSS 2.0 podcast feed with iTunes and Podcasting 2.0 tags |
| GET | [/llms.txt](${u.llms}) | Plain-text briefing for assistant agents |
| GET | /api/search?q=&limit=&offset= | Ranked search ([example](${u.search}?q=${encodeURIComponent(sampleEpisode?.topics?.[0] ?? 'episode')})) |
| GET, POST | /ask | Natural-language ask; POST can stream server-sent events |
| GET | [/status](${u.status}) | Health snapshot |
| GET, POST | [/mcp](${u.mcp}) | MCP server (GET: manifest; POST: JSON-RPC 2.0 over streamable HTTP) |
| GET | [/.well-known/mcp/server-card.json](${u.serverCard}) | MCP server card |
| POST | /donate | Optional tip: always 402 with payment options |
| GET | /transcripts/{srtFile} | An episode's transcript (SubRip); the same name with .vtt is WebVTT, with .json Podcasting 2.0 JSON |
| GET | /chapters/{id}.json | An episode's chapters (JSON chapters 1.2.0) |
| GET | /audio/{audioFile} | An episode's MP3 (supports Range requests) |

Authentication endpoints are described in [auth.md](${u.authMd}).

## Parameters and limits

| Parameter | Where | Bounds | Default |
|---|---|---|---|
| \`q\` | /api/search, GET /ask | at least ${LIMITS.queryMinLength} character | required |
| \`query\` | POST /ask body | at least ${LIMITS.queryMinLength} character | required |
| \`limit\` | /api/search, /ask | ${LIMITS.limit.min} to ${LIMITS.limit.max} | ${LIMITS.limit.default} |
| \`offset\` | /api/search | ${LIMITS.offset.min} to ${LIMITS.offset.max} | ${LIMITS.offset.default} |

A value out of range or not an integer is answered \`400 invalid_parameter\`, with a hint naming the field and its range.
Request bodies are limited to 64 KB (413 past that); POST /ask needs \`Content-Type: application/json\` (\`400 invalid_body\` otherwise, like any bad body).

Rate limit: 60 requests per 1-minute window per client IP, on the API, every machine-readable document and any
other address that is not a file of the website. The website's pages, scripts, images and audio are not counted
(on every host: behind a CDN they come from the CDN, and a single server answers them the same way), so browsing
and seeking in an episode never spend an app's budget; their answers carry no rate-limit headers. Headers: \`X-RateLimit-Limit\`,
\`X-RateLimit-Remaining\`, \`X-RateLimit-Reset\` (unix seconds); a 429 adds \`Retry-After\` (seconds). A bearer token
does not change the limit. Several server processes share the budget through Redis; while Redis is unreachable each
process counts on its own (up to 60 per process per window) until it is back.

Caching: every prebuilt document (the JSON documents, the feed, transcripts, chapters, audio, pages) carries an
\`ETag\` (one per encoding: br, gzip and identity bytes differ) and \`Last-Modified\`. \`If-None-Match\` naming the
ETag of the encoding you would be sent, or \`If-Modified-Since\`, gets \`304\`; \`If-Match\` or \`If-Unmodified-Since\`
naming another version gets \`412 precondition_failed\`. \`Range\` works on every file (\`206\`, or \`416\` outside it);
\`If-Range\` takes the identity ETag or the Last-Modified date. Behind a CDN, the website's pages, images and audio
carry the CDN's own validators.

Request framing: a request with two \`Host\` headers or a request line other than HTTP/1.0 or HTTP/1.1 is answered
\`400 invalid_request\`; headers not complete within the server's header timeout (10 seconds unless its operator set another) get \`408 request_timeout\`. Hints in error envelopes
name this service's own address, whatever \`Host\` the request carried.

## Search results

Each result has the contract's fields (\`id, title, url, score, date, season, duration, audio, transcript, snippet\`)
plus \`start\` (seconds) and \`timestamp\` (HH:MM:SS): where the snippet's sentence begins
in the best-matching passage. \`url\` opens the
episode page at that moment (\`?t=SECONDS\`). \`score\` is relative: compare scores within one response only.
Results are ordered by score, ties by id; paging with \`offset\`/\`limit\` gives disjoint pages.

/ask results (and MCP \`search_episodes\` for a question) also carry \`moments\`: up to three places in the episode
that may answer the question, best first, each \`{start, timestamp, url, snippet}\`. The first is the result's own
\`start\`, \`url\` and \`snippet\`; offer the others when the first is not it ("also at 00:09:12"). A result
without a transcript passage has no \`moments\`.

/ask ranks the question, not its words as typed (/api/search does that): it drops question words and filler, weighs
a question's common words ("long", "people") below its rare ones, also matches words of the show related to the
question's (WordNet synonyms, broader and narrower words, also of two words that name one thing together, "high
water" for the tide, and words that keep occurring together in the show's transcripts, computed at build time into
/search/semantic.json), and prefers passages where the question's words
occur close together or that the host's own question introduces (for a question in the first person, "can I ...",
one where the speaker addresses the listener, "you can ..."; for "how long", "how many" or "when", one that says a
duration, a number or a date). An episode without a transcript is placed at its best-matching chapter.

${extras.searchSyntax ?? ''}

## Streaming /ask

POST /ask with \`Accept: text/event-stream\` (or \`Prefer: streaming=true\`) answers a server-sent event stream:
\`start\` (data: \`_meta\` and \`query\`), one \`result\` per result (data: a SearchResult), then \`complete\`
(data: \`count\`, \`took_ms\`). Each event has an \`event:\` name and a JSON \`data:\` line.

## Offline search with Lunr

Apps can search without the API, loading only what a query needs (as the service itself does). The index is cut
up so that a show of thousands of hours stays cheap to search on a phone. Its paths, below and in \`layout\`, are
the site's: fetch them under ${u.base} (a site served under a path keeps them under that path):

- [/search/lunr-index.json](${u.lunrIndex}): a Lunr 2 index of the episodes' metadata (refs are episode ids;
  fields title, description, guests, topics, chapters), and in \`layout\` where the rest is;
- \`/search/shards/{segment}-{n}.json\`: the transcript index, in segments of consecutive episodes
  (\`layout.shards.segments\`, oldest first), each cut by term: a segment's shard n is a Lunr 2 index (refs are
  episode ids, field \`text\`) of the segment's terms from its \`first[n]\` up to its next shard's first term, at
  its \`path\` with \`{n}\` replaced. A word is in one shard of each segment. Each term's posting has \`df\` (the
  segment's passages that hold it) and per episode the metadata \`p\`: the episode's best passages for the term,
  \`[passage, weight, passage, weight, …]\`. A passage's score is the term's idf times its weight, the idf over the
  whole show: \`ln(1 + (N − df + 0.5) / (df + 0.5))\` with N \`layout.shards.documents\` and df the \`df\` of every
  segment's posting plus the episodes' fields the top index lists the term in. The weights are there, so a shard
  has no field vectors: to run Lunr's own query over it, give it an empty vector per episode with a transcript
  (\`layout.passages.episodes\`), as below; Lunr's \`score\` is then 0 (\`layout.version\` 6;
  version 4 had one set of shards, with the scores, and version 5 a folder of passage files per episode);
- \`/search/shards/{segment}-v{bucket}.json\` (a segment's \`vocabulary\`, \`{bucket}\` replaced): the segment's
  terms that start with one character, \`{"terms": [...]}\` in code-unit order; \`{bucket}\` is the letter for a-z,
  \`0\` for a digit, \`_\` for the rest of ASCII and \`x0\`–\`xf\` beyond it, by the last hex digit of the
  character's UTF-16 code; every bucket published. To match a word with one typo, read the two
  files of its first and second characters in each segment, then only the shards of the terms one edit away
  (beginning with either character) that they hold;
- \`/search/passages/{id}-{chunk}.json\`: an episode's transcript passages, numbered from 0 as \`p\` refers to
  them, in chunks of \`layout.passages.perChunk\` (passage p is in chunk ⌊p / perChunk⌋, from its \`from\`): \`text\`
  (the cues, one per line), \`starts\` (each cue's start, seconds), \`first\` (each passage's first cue) and \`ends\`;
  [/search/passages.json](${u.passages}) lists the episodes that have them and how many passages each has;
- \`/search/passage-terms/{id}-{chunk}.json\` (\`layout.passages.terms\`): what /ask reads of the same chunk's
  passages, made at build time (\`version\` 2): \`terms\` (the chunk's distinct index terms in code-point order,
  separated by spaces; term 0 is a stop word, term k the k-th of them), \`words\` (per passage, each word's term index
  as \`width\` base64url digits), \`questions\` (per passage, the term indexes of each question asked in it),
  \`starts\` (per passage, the seconds it starts at), \`addressed\` (per passage, its words addressing the
  listener: you, your, ...) and, when some passage has one, \`answers\` (per passage, the kinds of answer it says as
  bits: 1 a duration, 2 a number, 4 a date), and \`passages\`: the chunk's passages as
  \`/search/passages/{id}-{chunk}.json\` has them, so that /ask reads one file per chunk. A client that only searches
  never needs them.
- \`/search/records/{id}.json\` (\`layout.records\`): an episode's record as a result shows it (the Episode fields
  plus \`url\`, \`audio\`, \`transcript\` and \`chaptersUrl\`, absolute); \`layout.records.episodes\` lists every
  episode. A client fetches the records of the results it shows, not every episode's.

Each build names the shard files anew and removes the last build's, while the index that names them is cached for
up to 5 minutes (\`Cache-Control: max-age=300\`): when a file the index names answers 404, the site was rebuilt since,
so fetch the index again, bypassing caches (\`cache: 'no-cache'\`), and ask once more (the site's own search does).

Scores are BM25 with statistics of the whole show, so a word's scores from different shards and segments add up.
Terms are what the index pipeline made of each word: lower-cased, trimmed of punctuation at its edges and, in
English, of a possessive or contracted \`'s\` ("queen's" is \`queen\`), in French and Italian of an elided article
("l’abeille" is \`abeille\`, "dell'acqua" \`acqua\`), in Russian with ё read as е, then the language's stop words
and stemmer. Do the same to a typed word before looking it up, as below.

\`\`\`js
import lunr from 'lunr';
const top = await (await fetch('${u.lunrIndex}')).json();
const metadata = lunr.Index.load(top);            // titles, topics, guests, descriptions, chapters
const term = lunr.stemmer(new lunr.Token('hydration')).toString(); // a word lower-cased and trimmed as above
const fieldVectors = top.layout.passages.episodes.map((id) => [\`text/\${id}\`, []]);
const hits = [];
for (const { first, path } of top.layout.shards.segments) {
  const n = first.findLastIndex((f) => f <= term);
  const json = await (await fetch(path.replace('{n}', n))).json();
  const shard = lunr.Index.load({ ...json, fieldVectors });
  hits.push(...shard.query((q) => q.term(term, { usePipeline: false }))); // hit.ref is an episode id
}
// hit.matchData.metadata[term].text.p → [passage, weight, ...]; passages: layout.passages.path with {id}, {chunk}
const record = await (await fetch(top.layout.records.path.replace('{id}', hits[0].ref))).json(); // title, url, chapters, ...
\`\`\`

${extras.mcpTools?.length ? `## MCP tools\n\n${extras.mcpTools.map((t) => `- \`${t.name}\`: ${t.description}`).join('\n')}\n` : ''}
${extras.mcpMore?.length ? `## MCP resources, prompts and player\n\n${extras.mcpMore.join('\n')}\n` : ''}
${(extras.sections ?? []).join('\n')}
## Errors

Every error is \`{"error": {"code": "...", "message": "...", "hint": "..."}}\`; \`code\` is stable, \`message\` is
for people, \`hint\` tells what to do next.

| Status | code | Meaning |
|---|---|---|
${errorRows.join('\n')}
${oauthRows.length ? `\nOAuth endpoints answer in the OAuth error shape with these codes:\n\n| Status | code | When |\n|---|---|---|\n${oauthRows.join('\n')}\n` : ''}
## Versioning

Interface version 1.1.0. Paths carry no version segment; fields are only ever added.
`;
}

export function buildAgentsMd(content: LoadedContent, extras: DocsExtras = {}): string {
  const { show, episodes } = content;
  const u = siteUrls(show);
  const latest = [...episodes].sort((a, b) => b.id - a.id)[0];
  return `# AGENTS.md — integrating with ${show.title}

${show.description.replace(/\s+/g, ' ').trim()}

This service is the source of truth for the podcast's episodes, transcripts and links. Every read is public:
no key, no account. Be polite: at most 60 requests per minute.

## Fastest paths

1. **A listener asks a question** → \`GET ${u.ask}?q=<the question>\` (or POST JSON \`{"query": "...", "limit": 5}\`).
   Quote the \`snippet\`, and link the \`url\`: it opens the episode at the passage (\`?t=SECONDS\`).
2. **Keyword lookup** → \`GET ${u.search}?q=<words>&limit=10\`. Supports \`+required\`, \`-excluded\`, \`prefix*\`.
3. **Native tools** → the MCP server at \`${u.mcp}\` (streamable HTTP, JSON-RPC 2.0, no session needed).
${extras.mcpTools?.length ? extras.mcpTools.map((t) => `   - \`${t.name}\`: ${t.description}`).join('\n') : ''}
${extras.mcpMore?.length ? extras.mcpMore.map((line) => `   ${line}`).join('\n') : ''}
4. **Everything at once** → [episodes.json](${u.episodesJson}) and [search-index.json](${u.searchIndexJson}).

## Links

- [llms.txt](${u.llms}): the short briefing
- [docs.md](${u.docsMd}): parameters, errors, limits, search syntax
- [auth.md](${u.authMd}): optional credentials (they grant nothing extra)
- [OpenAPI](${u.openapi}) · [API catalog](${u.apiCatalog}) · [MCP server card](${u.serverCard})
- [RSS feed](${u.rss}) for subscribing
${latest ? `- Latest episode: [${latest.title}](${u.episodePage(latest)})` : ''}

## Rules of thumb

- Prefer transcript quotes with timestamps over summaries from memory.
- When a result's \`transcript\` is null, the episode has no transcript; rely on its description.
- On 429, wait \`Retry-After\` seconds. On 400, read \`error.hint\`: it names the field and the allowed range.
`;
}
