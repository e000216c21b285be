/**
 * `npm run import -- FEED`: brings an existing show into content files (podcast.yaml, episodes/*.md, transcripts/*.srt,
 * audio/ with --audio download).
 *
 * Re-running it is safe. Each episode is matched by its guid, so nothing is duplicated and ids and file names stay.
 * content/.import.json records what the last import took from the feed; a field (or the show notes, or a transcript)
 * that an editor changed since is kept, unless --force, while what the feed changed is updated — a three-way merge
 * per field. Everything is written into a temporary folder beside the content folder and moved in only when complete:
 * bad input, or any failure before the end, leaves the content folder as it was.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Document, isMap, parseDocument, stringify } from 'yaml';
import { episodeFiles, loadContent } from '../content/load.ts';
import { formatDuration, parseDuration } from '../../contract/duration.ts';
import { parseSrt } from '../content/srt.ts';
import type { Chapter } from '../../contract/schemas/episode.ts';
import { chaptersFromJson } from './chapters.ts';
import { fetchBytes, fetchToFile, pool, type FetchLike } from './fetch.ts';
import { checkItems, decodeXml, ImportError, parseFeedText, readFeedBytes } from './feed.ts';
import { assignNumbers, DEFAULT_SITE_URL, mapItem, mapShow, type ImportedEpisode } from './map.ts';
import { convertTranscript } from './transcripts.ts';

export { ImportError };

export interface ImportOptions {
  /** A feed file path or an http(s) URL. */
  source: string;
  /** The content folder to write (default "content"). */
  contentDir?: string;
  /** link: episodes link the enclosure by absolute URL; download: the audio is copied into content/audio. */
  audio?: 'link' | 'download';
  /** Overwrite what editors changed since the last import. */
  force?: boolean;
  /** For tests: the fetch to use (the global one by default). */
  fetch?: FetchLike;
  timeoutMs?: number;
  /** Byte limits: the feed, a transcript or chapters file, an audio file. */
  limits?: Partial<Record<'feed' | 'text' | 'audio', number>>;
  concurrency?: number;
}

export interface Unfetched {
  item: string;
  what: 'transcript' | 'chapters' | 'audio';
  url: string;
  reason: string;
}

export interface ImportReport {
  title: string;
  contentDir: string;
  episodes: number;
  created: string[];
  updated: string[];
  unchanged: number;
  transcripts: number;
  withChapters: number;
  /** "file: field" that an editor changed and the import kept (without --force). */
  kept: string[];
  unfetched: Unfetched[];
  notes: string[];
}

const STATE_FILE = '.import.json';
const MB = 1024 * 1024;
const LIMITS = { feed: 256 * MB, text: 10 * MB, audio: 1024 * MB };

interface EpisodeState {
  file: string;
  fields: Record<string, unknown>;
  body: string;
  chaptersUrl?: string;
  transcriptUrl?: string;
  srtHash?: string;
  audioUrl?: string;
}
interface State {
  about: string;
  source: string;
  importedAt: string;
  show: Record<string, unknown>;
  episodes: Record<string, EpisodeState>;
}

interface ExistingEpisode {
  file: string;
  id: number | undefined;
  doc: Document;
  body: string;
  text: string;
}

/** Frontmatter keys in the order the importer writes them. */
const EPISODE_KEYS = [
  'id', 'season', 'title', 'date', 'pubDate', 'duration', 'audioFile', 'audioUrl', 'audioLength', 'audioType', 'srtFile',
  'guid', 'episodeType', 'explicit', 'image', 'hosts', 'guests', 'spotifyUrl', 'appleUrl', 'amazonUrl', 'youtubeUrl', 'chapters',
];
const SHOW_KEYS = ['title', 'description', 'author', 'owner', 'language', 'copyright', 'type', 'explicit', 'categories', 'artwork', 'siteUrl', 'platforms', 'hosts', 'guid', 'locked'];

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const hash = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
const ordered = (values: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(
    [...keys.filter((k) => k in values), ...Object.keys(values).filter((k) => !keys.includes(k))]
      .filter((k) => values[k] !== undefined)
      .map((k) => [k, values[k]]),
  );

function splitFrontmatter(text: string): { fm: string; body: string } | null {
  const m = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n?---\r?\n?([\s\S]*)$/.exec(text);
  return m ? { fm: m[1]!, body: m[2]!.trim() } : null;
}

function readExistingEpisodes(dir: string): { byGuid: Map<string, ExistingEpisode>; ids: Set<number>; files: Set<string> } {
  const byGuid = new Map<string, ExistingEpisode>();
  const ids = new Set<number>();
  const files = new Set<string>();
  if (!existsSync(dir)) return { byGuid, ids, files };
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.md'))) {
    files.add(name);
    const text = readFileSync(join(dir, name), 'utf8');
    const parts = splitFrontmatter(text);
    if (!parts) continue;
    const doc = parseDocument(parts.fm);
    if (doc.errors.length || !isMap(doc.contents)) continue;
    const id = doc.get('id');
    if (typeof id === 'number') ids.add(id);
    const guid = doc.get('guid');
    if (typeof guid === 'string' || typeof guid === 'number') {
      byGuid.set(String(guid), { file: name, id: typeof id === 'number' ? id : undefined, doc, body: parts.body, text });
    }
  }
  return { byGuid, ids, files };
}

/** What the last import recorded for a guid: its own entry only (a guid may be "constructor" or "__proto__"). */
function recorded(state: State | null, guid: string): EpisodeState | undefined {
  return state && Object.hasOwn(state.episodes, guid) ? state.episodes[guid] : undefined;
}

function readState(contentDir: string): State | null {
  try {
    const state = JSON.parse(readFileSync(join(contentDir, STATE_FILE), 'utf8')) as State;
    return state && typeof state.episodes === 'object' ? state : null;
  } catch {
    return null;
  }
}

/**
 * Three-way merge of one mapping: base is what the last import wrote, ours what the file holds now, theirs what the feed
 * says now. Applies the result to doc; returns the keys an editor changed that were kept against the feed.
 */
function merge(doc: Document, base: Record<string, unknown> | undefined, theirs: Record<string, unknown>, keys: string[], force: boolean, skip: string[] = []): string[] {
  const kept: string[] = [];
  const ours = (doc.toJS() ?? {}) as Record<string, unknown>;
  for (const key of new Set([...keys.filter((k) => k in theirs || (base && k in base)), ...Object.keys(theirs)])) {
    if (skip.includes(key)) continue;
    const o = ours[key];
    const b = base?.[key];
    const t = theirs[key];
    if (same(o, t)) continue;
    const editorChanged = base ? !same(o, b) : o !== undefined;
    if (editorChanged && !force) {
      if (!same(t, b)) kept.push(key);
      continue;
    }
    if (t === undefined) doc.delete(key);
    else doc.set(key, t);
  }
  return kept;
}

function episodeText(fm: string, body: string): string {
  return `---\n${fm.endsWith('\n') ? fm : `${fm}\n`}---\n${body ? `${body}\n` : ''}`;
}

const yamlOptions = { lineWidth: 0 } as const;

export async function importFeed(options: ImportOptions): Promise<ImportReport> {
  const contentDir = resolve(options.contentDir ?? 'content');
  const force = options.force ?? false;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const limits = { ...LIMITS, ...options.limits };
  const fetchOptions = (maxBytes: number) => ({ maxBytes, timeoutMs, fetch: options.fetch });
  const name = /^https?:/i.test(options.source) ? options.source : basename(options.source);

  // 1. Read and check everything before writing anything.
  const bytes = await readFeedBytes(options.source, fetchOptions(limits.feed));
  const feed = parseFeedText(decodeXml(bytes), name);
  checkItems(feed, name);
  const notes: string[] = [];
  const show = mapShow(feed, notes, options.source);
  const imported = (feed.items ?? []).map((item, i) => mapItem(item, i + 1, show.explicit as boolean, notes));

  // 2. What is there already. A show that no import wrote (the bundled sample) is not merged into without --force.
  const state = readState(contentDir);
  if (!state && !force && existsSync(join(contentDir, 'podcast.yaml'))) {
    let title = '';
    try {
      title = String((parseDocument(readFileSync(join(contentDir, 'podcast.yaml'), 'utf8')).toJS() as { title?: unknown })?.title ?? '');
    } catch {}
    const count = episodeFiles(contentDir).length;
    throw new ImportError(
      `${options.contentDir ?? 'content'}: already holds a show that was not imported${title ? ` ("${title}", ${count} episodes)` : ''}; ` +
        'import into another folder with --content DIR, or move it away first (--force imports into it anyway)',
    );
  }
  const episodesDir = join(contentDir, 'episodes');
  const existing = readExistingEpisodes(episodesDir);
  const usedIds = new Set(existing.ids);
  const usedFiles = new Set(existing.files);
  const numbers = assignNumbers(imported, notes);

  interface Plan {
    ep: ImportedEpisode;
    id: number;
    file: string;
    current: ExistingEpisode | undefined;
    base: EpisodeState | undefined;
    fields: Record<string, unknown>;
    srtText?: string;
    stagedAudio?: string;
  }
  const plans: Plan[] = [];
  const report: ImportReport = {
    title: String(show.title),
    contentDir,
    episodes: 0,
    created: [],
    updated: [],
    unchanged: 0,
    transcripts: 0,
    withChapters: 0,
    kept: [],
    unfetched: [],
    notes,
  };
  if (state && state.source !== options.source) notes.push(`the last import into this folder was from ${state.source}`);
  const newOnes: ImportedEpisode[] = [];
  for (const ep of imported) {
    const current = existing.byGuid.get(ep.guid);
    const base = recorded(state, ep.guid);
    if (!current && base && !force) {
      notes.push(`${ep.label}: episodes/${base.file} was deleted since the last import; not brought back (--force does)`);
      continue;
    }
    if (current) {
      const id = current.id ?? numbers.get(ep)!;
      plans.push({ ep, id, file: current.file, current, base, fields: {} });
    } else newOnes.push(ep);
  }
  let highest = 0;
  for (const n of [...usedIds, ...numbers.values()]) highest = Math.max(highest, n);
  const width = Math.max(3, String(highest).length);
  let nextFree = highest;
  for (const ep of [...newOnes].sort((a, b) => numbers.get(a)! - numbers.get(b)!)) {
    // An episode brought back with --force gets its old id and file name again when they are free.
    const previous = recorded(state, ep.guid);
    const previousId = typeof previous?.fields.id === 'number' ? previous.fields.id : undefined;
    let id = previousId !== undefined && !usedIds.has(previousId) ? previousId : numbers.get(ep)!;
    if (usedIds.has(id)) id = ++nextFree;
    usedIds.add(id);
    let file = previous && id === previousId && !usedFiles.has(previous.file) ? previous.file : `${String(id).padStart(width, '0')}-${ep.slug}.md`;
    for (let n = 2; usedFiles.has(file); n++) file = `${String(id).padStart(width, '0')}-${ep.slug}-${n}.md`;
    usedFiles.add(file);
    plans.push({ ep, id, file, current: undefined, base: recorded(state, ep.guid), fields: {} });
  }
  plans.sort((a, b) => a.id - b.id);

  // 3. A temporary folder beside the content folder (same file system, so moving in is a rename).
  await mkdir(dirname(contentDir), { recursive: true });
  const staging = await mkdtemp(join(dirname(contentDir), `.${basename(contentDir)}.import-`));
  const staged: string[] = [];
  const pending = new Map<string, string>();
  /** Queues a file for the temporary folder; written together, several at a time (a big feed is 10,000 files). */
  const stage = (rel: string, data: string) => {
    pending.set(rel, data);
    staged.push(rel);
  };
  const writeStaged = async () => {
    for (const dir of new Set([...pending.keys()].map((rel) => dirname(join(staging, rel))))) await mkdir(dir, { recursive: true });
    await pool([...pending], 16, ([rel, data]) => writeFile(join(staging, rel), data));
    pending.clear();
  };

  try {
    // 4. Fetch what the items link to: chapters, transcripts, audio with --audio download.
    await pool(plans, options.concurrency ?? 6, async (plan) => {
      const { ep, base } = plan;
      const stem = plan.file.replace(/\.md$/, '');
      const fields: Record<string, unknown> = { id: plan.id, ...ep.fields };
      const seconds = typeof fields.duration === 'string' ? parseDuration(fields.duration) : undefined;

      // Transcript: converted to SubRip, the format the content model reads.
      const srtFile = `${stem}.srt`;
      const srtPath = join(contentDir, 'transcripts', srtFile);
      if (ep.transcript) {
        const unchangedSource = base?.transcriptUrl === ep.transcript.url && existsSync(srtPath);
        if (unchangedSource && !force) {
          fields.srtFile = srtFile;
        } else {
          try {
            const text = (await fetchBytes(ep.transcript.url, fetchOptions(limits.text))).toString('utf8');
            const srt = convertTranscript(text, ep.transcript.format);
            const editorEdited = existsSync(srtPath) && (!base?.srtHash || hash(readFileSync(srtPath)) !== base.srtHash);
            if (editorEdited && !force) report.kept.push(`transcripts/${srtFile}`);
            else plan.srtText = srt;
            fields.srtFile = srtFile;
          } catch (e) {
            const what = /^(is |has )/.test((e as Error).message) ? `the file ${(e as Error).message}` : (e as Error).message;
            report.unfetched.push({ item: ep.label, what: 'transcript', url: ep.transcript.url, reason: what });
            if (existsSync(srtPath)) fields.srtFile = srtFile;
          }
        }
      }

      // Chapters: the JSON file the item links to, else Podlove chapters in the feed.
      let chapters: Chapter[] = ep.inlineChapters;
      if (ep.chaptersUrl) {
        if (!force && base?.chaptersUrl === ep.chaptersUrl && Array.isArray(base.fields.chapters)) {
          chapters = base.fields.chapters as Chapter[];
        } else {
          try {
            chapters = chaptersFromJson((await fetchBytes(ep.chaptersUrl, fetchOptions(limits.text))).toString('utf8'));
          } catch (e) {
            report.unfetched.push({ item: ep.label, what: 'chapters', url: ep.chaptersUrl, reason: (e as Error).message });
            if (base?.chaptersUrl && Array.isArray(base.fields.chapters)) chapters = base.fields.chapters as Chapter[];
          }
        }
      }
      // The content model rejects chapters after the end: the duration, or the transcript's last cue without one.
      let end = seconds;
      if (end === undefined && fields.srtFile) {
        const cues = parseSrt(plan.srtText ?? readFileSync(srtPath, 'utf8')).cues;
        if (cues.length) end = Math.floor(cues[cues.length - 1]!.end);
      }
      if (end !== undefined && chapters.some((c) => parseDuration(c.start)! > end)) {
        notes.push(`${ep.label}: dropped chapters that start after the episode ends (${formatDuration(end)})`);
        chapters = chapters.filter((c) => parseDuration(c.start)! <= end);
      }
      if (chapters.length) fields.chapters = chapters;

      // Audio: linked by URL, or downloaded into audio/.
      if (options.audio === 'download') {
        const ext = audioExtension(String(fields.audioType ?? ''), ep.enclosureUrl);
        const audioFile = `${stem}.${ext}`;
        const have = existsSync(join(contentDir, 'audio', audioFile)) && base?.audioUrl === ep.enclosureUrl;
        let ok = have && !force;
        if (!ok) {
          await mkdir(join(staging, 'audio'), { recursive: true });
          try {
            await fetchToFile(ep.enclosureUrl, join(staging, 'audio', audioFile), fetchOptions(limits.audio));
            plan.stagedAudio = `audio/${audioFile}`;
            ok = true;
          } catch (e) {
            report.unfetched.push({ item: ep.label, what: 'audio', url: ep.enclosureUrl, reason: `${(e as Error).message}; linked by URL instead` });
          }
        }
        if (ok) {
          fields.audioFile = audioFile;
          delete fields.audioUrl;
          delete fields.audioLength;
        }
      }
      plan.fields = ordered(fields, EPISODE_KEYS);
    });
    const position = new Map(plans.map((p) => [p.ep.label, p.ep.position]));
    const kinds = ['audio', 'transcript', 'chapters'];
    report.unfetched.sort((a, b) => position.get(a.item)! - position.get(b.item)! || kinds.indexOf(a.what) - kinds.indexOf(b.what));

    // 5. Episode files, merged with what is there.
    const newState: State = {
      about: 'Written by `npm run import`: what the last import took from the feed, so that the next one can tell an editor\'s changes from the feed\'s. Do not edit.',
      source: options.source,
      importedAt: new Date().toISOString(),
      show,
      // Keyed by the feed's guids, which may be any text ("__proto__", "constructor"): no prototype to collide with.
      episodes: Object.create(null) as State['episodes'],
    };
    for (const plan of plans) {
      const rel = `episodes/${plan.file}`;
      let text: string;
      if (!plan.current) {
        text = episodeText(stringify(plan.fields, yamlOptions), plan.ep.body);
      } else {
        const { doc } = plan.current;
        const kept = merge(doc, plan.base?.fields, plan.fields, EPISODE_KEYS, force, ['id']);
        let body = plan.current.body;
        if (body !== plan.ep.body) {
          const editorChanged = plan.base ? body !== plan.base.body : body !== '';
          if (!editorChanged || force) body = plan.ep.body;
          else if (plan.base?.body !== plan.ep.body) kept.push('show notes');
        }
        report.kept.push(...kept.map((k) => `${rel}: ${k}`));
        text = episodeText(doc.toString(yamlOptions), body);
      }
      if (!plan.current) report.created.push(rel);
      else if (text !== plan.current.text) report.updated.push(rel);
      else report.unchanged++;
      if (!plan.current || text !== plan.current.text) stage(rel, text);
      if (plan.srtText !== undefined) stage(`transcripts/${plan.fields.srtFile}`, plan.srtText);
      if (plan.stagedAudio) staged.push(plan.stagedAudio);
      if (plan.fields.srtFile) report.transcripts++;
      if (Array.isArray(plan.fields.chapters)) report.withChapters++;
      const srtPath = join(contentDir, 'transcripts', String(plan.fields.srtFile));
      newState.episodes[plan.ep.guid] = {
        file: plan.file,
        fields: plan.fields,
        body: plan.ep.body,
        ...(plan.ep.chaptersUrl ? { chaptersUrl: plan.ep.chaptersUrl } : {}),
        ...(plan.ep.transcript && plan.fields.srtFile ? { transcriptUrl: plan.ep.transcript.url } : {}),
        ...(plan.fields.srtFile
          ? { srtHash: plan.srtText !== undefined ? hash(plan.srtText) : existsSync(srtPath) ? hash(readFileSync(srtPath)) : undefined }
          : {}),
        ...(plan.fields.audioFile ? { audioUrl: plan.ep.enclosureUrl } : {}),
      };
    }
    // Episodes the previous import wrote that this run did not touch (deleted ones) stay in the record.
    for (const [guid, entry] of Object.entries(state?.episodes ?? {})) newState.episodes[guid] ??= entry;
    report.episodes = plans.length;

    // 6. podcast.yaml, merged the same way; the service's own settings (siteUrl, tips, topics...) stay the editor's.
    const yamlPath = join(contentDir, 'podcast.yaml');
    if (!existsSync(yamlPath)) {
      const doc = new Document(ordered({ ...show, siteUrl: DEFAULT_SITE_URL }, SHOW_KEYS));
      doc.commentBefore = ` The show, imported from ${name} by \`npm run import\`. Re-running the import updates what the feed changed\n and keeps what you change here. siteUrl is where this service will be served (SITE_URL overrides it).`;
      stage('podcast.yaml', doc.toString(yamlOptions));
      report.created.push('podcast.yaml');
    } else {
      const current = await readFile(yamlPath, 'utf8');
      const doc = parseDocument(current);
      const kept = merge(doc, state?.show, show, SHOW_KEYS, force);
      report.kept.push(...kept.map((k) => `podcast.yaml: ${k}`));
      const text = doc.toString(yamlOptions);
      if (text !== current) {
        stage('podcast.yaml', text);
        report.updated.push('podcast.yaml');
      }
    }
    stage(STATE_FILE, `${JSON.stringify(newState, null, 1)}\n`);
    await writeStaged();

    // 7. Complete: move it in. A new content folder is checked first and moved in whole.
    if (!existsSync(contentDir)) {
      const { errors } = loadContent(staging, {}, staging);
      if (errors.length) throw new ImportError(`the imported content does not pass the check: ${errors[0]}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`);
      await rename(staging, contentDir);
    } else {
      for (const dir of new Set(staged.map((rel) => dirname(join(contentDir, rel))))) await mkdir(dir, { recursive: true });
      for (const rel of staged) await rename(join(staging, rel), join(contentDir, rel));
      await rm(staging, { recursive: true, force: true });
      const { errors } = loadContent(contentDir, {}, contentDir);
      for (const error of errors) notes.push(`npm run check: ${error}`);
    }
  } catch (e) {
    await rm(staging, { recursive: true, force: true });
    throw e;
  }
  return report;
}

const AUDIO_EXTENSIONS: Record<string, string> = {
  'audio/mpeg': 'mp3', 'audio/mp3': 'mp3', 'audio/x-mp3': 'mp3', 'audio/mp4': 'm4a', 'audio/x-m4a': 'm4a', 'audio/m4a': 'm4a',
  'audio/aac': 'aac', 'audio/ogg': 'ogg', 'audio/opus': 'opus', 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/flac': 'flac',
};

function audioExtension(type: string, url: string): string {
  const byType = AUDIO_EXTENSIONS[type.toLowerCase()];
  if (byType) return byType;
  const ext = /\.(mp3|m4a|aac|ogg|oga|opus|wav|flac)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  return ext ?? 'mp3';
}
