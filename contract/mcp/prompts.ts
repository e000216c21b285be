/**
 * The MCP prompt registry: names, descriptions and arguments of the prompts prompts/list offers. The texts the
 * prompts expand to are built by functions/mcp/prompts.ts from published data; the manifest and the server card
 * list these same entries, so discovery cannot drift from what prompts/get answers.
 */
import type { Prompt } from '@modelcontextprotocol/sdk/types.js';

export const PROMPTS = {
  summarize_episode: {
    name: 'summarize_episode',
    title: 'Summarize an episode',
    description:
      'Summarize one episode from its own words: the prompt carries the episode (JSON) and the first page of its transcript, and says how to read the rest.',
    arguments: [{ name: 'id', description: 'The episode number, e.g. "3".', required: true }],
  },
  find_topic: {
    name: 'find_topic',
    title: 'Find where the show discusses a topic',
    description:
      'Find the episodes and the moments where the show discusses a topic: the prompt carries the search results with timestamps and links.',
    arguments: [{ name: 'topic', description: 'What to look for, e.g. "swarming bees".', required: true }],
  },
  quote_moment: {
    name: 'quote_moment',
    title: 'Quote the moment about a topic',
    description:
      'Quote, word for word and with its timestamp, the moment the show talks about a topic: the prompt carries the transcript lines around the best-matching moment.',
    arguments: [
      { name: 'topic', description: 'What the moment is about, e.g. "queen bee".', required: true },
      { name: 'id', description: 'Only look in this episode (its number); optional.', required: false },
    ],
  },
} as const satisfies Record<string, Prompt>;

export type PromptName = keyof typeof PROMPTS;

export const PROMPT_LIST: Prompt[] = Object.values(PROMPTS).map((p) => ({ ...p, arguments: p.arguments.map((a) => ({ ...a })) }));

export function isPromptName(name: string): name is PromptName {
  return Object.hasOwn(PROMPTS, name);
}
