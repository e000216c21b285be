import { Marked, type Token } from 'marked';
import sanitizeHtml from 'sanitize-html';

/** The parser's options (part of the content cache's key for rendered notes: src/content/load.ts). */
export const MARKDOWN_OPTIONS = { gfm: true, async: false } as const;

/**
 * What show notes may contain once rendered (part of the same cache key): what Markdown makes, plus the few tags
 * editors write by hand. Notes come from editors and from imported feeds (a third party's HTML turned into
 * Markdown), and Markdown passes raw HTML and any link scheme through; the site's CSP allows every inline script
 * the built page holds (by hash), so a <script> in the notes would run. No script, no event handler, no style, no
 * frame, and links and images only to http(s) (mailto: for links), relative addresses included.
 */
export const NOTES_HTML_POLICY = {
  allowedTags: [
    'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'code', 'em', 'strong', 'del', 's', 'sub', 'sup',
    'ul', 'ol', 'li', 'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'details', 'summary', 'abbr', 'kbd', 'mark', 'input',
  ],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    code: ['class'],
    th: ['align'],
    td: ['align'],
    ol: ['start'],
    abbr: ['title'],
    // GFM task lists: a disabled checkbox.
    input: ['type', 'checked', 'disabled'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
} satisfies sanitizeHtml.IOptions;

const marked = new Marked(MARKDOWN_OPTIONS);

/** Show notes → HTML for the episode page and the feed's content:encoded, kept to NOTES_HTML_POLICY. */
export function markdownToHtml(markdown: string): string {
  return sanitizeHtml(marked.parse(markdown, { async: false }), NOTES_HTML_POLICY);
}

/**
 * Show notes → plain text: the contract's Episode.desc, the feed's description and the search index. HTML in the
 * notes gives its words as the page shows them: a block written as HTML (<p>, <details>, <div>) had been left out,
 * and the body of an inline <script> put in. (Everything it uses is inside it: its text is part of the identity
 * the content cache keys episodes by, src/content/load.ts.)
 */
export function markdownToText(markdown: string): string {
  // Elements whose content is never text a reader sees: an inline one's words stay out of the plain text.
  const HIDDEN_ELEMENT = /^<(\/?)(script|style|textarea|noscript|template|iframe|object|select)\b[^>]*?(\/?)>$/i;
  // Ends of block elements and line breaks: where the plain text starts a new line.
  const HTML_BREAK = /<\/(?:p|div|li|h[1-6]|summary|details|blockquote|pre|tr|section|article|figcaption|dt|dd)\s*>|<br\s*\/?>/gi;
  // The words of HTML as the page shows them (sanitize-html drops scripts and styles whole).
  const htmlText = (html: string) => sanitizeHtml(html.replace(HTML_BREAK, '$&\n'), { allowedTags: [], allowedAttributes: {} });
  const parts: string[] = [];
  let hiddenIn: string | undefined;
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'html') {
        const tag = token.block ? undefined : HIDDEN_ELEMENT.exec(token.text.trim());
        if (tag) {
          if (tag[1]) hiddenIn = hiddenIn === tag[2]!.toLowerCase() ? undefined : hiddenIn;
          else if (!tag[3]) hiddenIn ??= tag[2]!.toLowerCase();
        } else if (!hiddenIn) parts.push(htmlText(token.text), token.block ? '\n' : '');
        continue;
      }
      if (hiddenIn) continue;
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
