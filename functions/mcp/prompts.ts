/**
 * prompts/list and prompts/get, and completion/complete for their arguments (and the resource templates' {id}).
 * Each prompt expands to a user message grounded in published data: the episode and its transcript, or the
 * search results, so the model answers from the show's own words.
 */
import type { CompleteResult, GetPromptResult, PromptMessage } from '@modelcontextprotocol/sdk/types.js';
import type { RequestContext } from '../types.ts';
import { quoteInput } from '../errors.ts';
import { RPC_ERROR, RpcError, type Params } from '../../contract/mcp/protocol.ts';
import { PROMPTS, PROMPT_LIST, isPromptName, type PromptName } from '../../contract/mcp/prompts.ts';
import { RESOURCE_TEMPLATES, uris } from '../../contract/mcp/resources.ts';
import { LIMITS } from '../../contract/schemas/search.ts';
import { IMPLEMENTATIONS } from './tools.ts';
import { hasTranscript, readResource } from './resources.ts';

export async function listPrompts(params: Params) {
  if (params.cursor !== undefined) throw new RpcError(RPC_ERROR.invalidParams, 'Invalid cursor: prompts/list has a single page; call it without a cursor.');
  return { prompts: PROMPT_LIST };
}

export async function getPrompt(params: Params, ctx: RequestContext): Promise<GetPromptResult> {
  const { name } = params;
  if (typeof name !== 'string' || !name) throw new RpcError(RPC_ERROR.invalidParams, 'params.name is required: the name of the prompt (see prompts/list).');
  if (!isPromptName(name)) {
    throw new RpcError(RPC_ERROR.invalidParams, `Unknown prompt: ${quoteInput(name)}. Available prompts: ${PROMPT_LIST.map((p) => p.name).join(', ')}.`);
  }
  const args = params.arguments ?? {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new RpcError(RPC_ERROR.invalidParams, 'params.arguments must be an object of strings.');
  const values = args as Record<string, unknown>;
  for (const arg of PROMPTS[name].arguments) {
    const value = values[arg.name];
    if (arg.required && (typeof value !== 'string' || !value.trim())) {
      throw new RpcError(RPC_ERROR.invalidParams, `Invalid arguments for ${name}: ${arg.name} is required (${arg.description})`);
    }
    if (value !== undefined && typeof value !== 'string') throw new RpcError(RPC_ERROR.invalidParams, `Invalid arguments for ${name}: ${arg.name} must be a string.`);
  }
  return EXPAND[name](values as Record<string, string | undefined>, ctx);
}

const text = (t: string): PromptMessage => ({ role: 'user', content: { type: 'text', text: t } });

function episodeId(prompt: string, value: string): number {
  // Decimal digits only: Number() would also read "0x1", "1e0" and "+1" as episode 1.
  const digits = value.trim().replace(/^#/, '');
  const id = /^\d+$/.test(digits) ? Number(digits) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw new RpcError(RPC_ERROR.invalidParams, `Invalid arguments for ${prompt}: id must be an episode number, a positive integer such as "1".`);
  return id;
}

async function embedded(uri: string, ctx: RequestContext): Promise<PromptMessage> {
  const [content] = (await readResource({ uri }, ctx)).contents;
  return { role: 'user', content: { type: 'resource', resource: content! } };
}

const EXPAND: { [N in PromptName]: (args: Record<string, string | undefined>, ctx: RequestContext) => Promise<GetPromptResult> } = {
  async summarize_episode(args, ctx) {
    const id = episodeId('summarize_episode', args.id!);
    const episode = (await ctx.data.service()).episodes.find((e) => e.id === id);
    if (!episode) throw new RpcError(RPC_ERROR.invalidParams, `Invalid arguments for summarize_episode: no episode has id ${id}.`);
    const messages = [await embedded(uris.episode(id), ctx)];
    let instruction = `Summarize episode #${id} "${episode.title}" of the podcast in a few paragraphs`;
    if (hasTranscript(episode)) {
      const transcript = await embedded(uris.transcript(id), ctx);
      messages.push(transcript);
      const pages = ((transcript.content as { resource: { _meta?: { pages?: number } } }).resource._meta?.pages ?? 1) as number;
      instruction +=
        ', from what is actually said in its transcript (above). Name the guests and the main ideas, and give the timestamp of each key moment.' +
        (pages > 1 ? ` The transcript has ${pages} pages: read ${uris.transcript(id, 2)} and the pages after it before you summarize.` : '');
    } else {
      instruction += ' from its description (above); it has no transcript, so do not quote it.';
    }
    messages.push(text(`${instruction} End with the episode link: ${episode.url}`));
    return { description: `Summarize #${id} ${episode.title}`, messages };
  },

  async find_topic(args, ctx) {
    const topic = args.topic!.trim();
    const found = await IMPLEMENTATIONS.search_episodes({ query: topic, limit: 5 }, ctx);
    const results = found.ok ? found.text : found.message;
    return {
      description: `Where ${topic} is discussed`,
      messages: [
        text(
          `Where does the podcast discuss "${topic}"? Here is what its search found:\n\n${results}\n\n` +
            'Answer with the episodes and the moments (timestamps) that really discuss it, best first, each with its link ' +
            '(the episode URL with ?t=SECONDS opens it at that moment). Check a moment with get_transcript before you describe it; ' +
            'say plainly if nothing matches.',
        ),
      ],
    };
  },

  async quote_moment(args, ctx) {
    const topic = args.topic!.trim();
    const only = args.id === undefined || args.id === '' ? undefined : episodeId('quote_moment', args.id);
    const service = await ctx.data.service();
    if (only !== undefined && !service.episodes.some((e) => e.id === only)) {
      throw new RpcError(RPC_ERROR.invalidParams, `Invalid arguments for quote_moment: no episode has id ${only}.`);
    }
    const found = await IMPLEMENTATIONS.search_episodes({ query: topic, limit: LIMITS.limit.max }, ctx);
    // A moment to quote is in a transcript: a result placed by its chapter (an episode without one) has none.
    const best = found.ok ? found.data.results.find((r) => (only === undefined || r.id === only) && r.start !== undefined && r.transcript) : undefined;
    const window = best ? await IMPLEMENTATIONS.get_transcript({ id: best.id, start: Math.max(0, best.start! - 20), end: best.start! + 60 }, ctx) : undefined;
    if (!best || !window?.ok) {
      return {
        description: `Quote the moment about ${topic}`,
        messages: [
          text(
            `Quote what the podcast says about "${topic}"${only ? ` in episode #${only}` : ''}. Its search found no transcript passage about it, ` +
              'so say so plainly and offer search_episodes with other words; do not invent a quote.',
          ),
        ],
      };
    }
    const lines = window.text;
    const link = new URL(best.url);
    return {
      description: `Quote the moment about ${topic}`,
      messages: [
        text(
          `Quote, word for word, the moment where the podcast talks about "${topic}". The best match is in #${best.id} ${best.title} ` +
            `at ${best.timestamp}. The transcript around it:\n\n${lines}\n\n` +
            `Quote the exact words (with the speaker) and the timestamp they start at, then give the link that opens the episode there: ${link.toString()}. ` +
            'Do not paraphrase inside the quotation marks.',
        ),
      ],
    };
  },
};

/** completion/complete: episode numbers for any `id` argument (prompts and resource templates); nothing for free text. */
export async function complete(params: Params, ctx: RequestContext): Promise<CompleteResult> {
  const ref = params.ref as { type?: unknown; name?: unknown; uri?: unknown } | undefined;
  const argument = params.argument as { name?: unknown; value?: unknown } | undefined;
  if (!ref || typeof ref !== 'object' || !argument || typeof argument !== 'object' || typeof argument.name !== 'string') {
    throw new RpcError(RPC_ERROR.invalidParams, 'params.ref ({type, name} or {type, uri}) and params.argument ({name, value}) are required.');
  }
  if (ref.type === 'ref/prompt') {
    if (typeof ref.name !== 'string') throw new RpcError(RPC_ERROR.invalidParams, 'params.ref.name must be a string: the name of a prompt (see prompts/list).');
    if (!isPromptName(ref.name)) {
      throw new RpcError(RPC_ERROR.invalidParams, `Unknown prompt: ${quoteInput(ref.name)}. Available prompts: ${PROMPT_LIST.map((p) => p.name).join(', ')}.`);
    }
  } else if (ref.type === 'ref/resource') {
    if (typeof ref.uri !== 'string') throw new RpcError(RPC_ERROR.invalidParams, 'params.ref.uri must be a string: a resource template (see resources/templates/list).');
    if (!RESOURCE_TEMPLATES.some((t) => t.uriTemplate === ref.uri)) {
      throw new RpcError(RPC_ERROR.invalidParams, `Unknown resource template: ${quoteInput(ref.uri)}.`);
    }
  } else {
    throw new RpcError(RPC_ERROR.invalidParams, 'params.ref.type must be "ref/prompt" or "ref/resource".');
  }
  // MCP types the value as a string; anything else (an object whose toString is not a function cannot even be
  // printed) is the client's mistake, not the server's.
  if (argument.value !== undefined && typeof argument.value !== 'string') {
    throw new RpcError(RPC_ERROR.invalidParams, 'params.argument.value must be a string: what the user has typed so far.');
  }
  if (argument.name !== 'id') return { completion: { values: [], hasMore: false } };
  const typed = (argument.value ?? '').replace(/^#/, '');
  const ids = (await ctx.data.service()).episodes
    .map((e) => String(e.id))
    .filter((id) => id.startsWith(typed))
    .reverse();
  return { completion: { values: ids.slice(0, 100), total: ids.length, hasMore: ids.length > 100 } };
}
