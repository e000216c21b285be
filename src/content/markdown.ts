import { Marked, type Token } from 'marked';

/** The parser's options (part of the content cache's key for rendered notes: src/content/load.ts). */
export const MARKDOWN_OPTIONS = { gfm: true, async: false } as const;

const marked = new Marked(MARKDOWN_OPTIONS);

/** Show notes → HTML for the episode page and the feed's content:encoded. */
export function markdownToHtml(markdown: string): string {
  return marked.parse(markdown, { async: false });
}

/** Show notes → plain text: the contract's Episode.desc, the feed's description and the search index. */
export function markdownToText(markdown: string): string {
  const parts: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if ('tokens' in token && Array.isArray(token.tokens) && token.tokens.length) walk(token.tokens);
      else if (token.type === 'list') {
        for (const item of token.items) {
          walk(item.tokens);
          parts.push('\n');
        }
      }
      // Soft line breaks inside a paragraph are spaces; only block boundaries become new lines.
      else if (token.type === 'text' || token.type === 'codespan') parts.push(token.text.replace(/\s*\n\s*/g, ' '));
      else if (token.type === 'code') parts.push(token.text);
      else if (token.type === 'escape') parts.push(token.text);
      if (token.type === 'paragraph' || token.type === 'heading' || token.type === 'list_item' || token.type === 'code') {
        parts.push('\n');
      }
    }
  };
  walk(marked.lexer(markdown));
  return parts
    .join('')
    .replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'")
    .split('\n')
    .map((l) => l.replace(/[ \t]+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}
