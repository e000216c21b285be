/**
 * Show notes from a feed (HTML, or plain text with line breaks) → Markdown for the episode file's body.
 * turndown does the conversion; scripts, styles and embeds are dropped, links other than http(s)/mailto keep only
 * their text, and "<" in text is escaped so nothing in the notes becomes raw HTML on the episode page.
 */
import TurndownService from 'turndown';

const turndown = new TurndownService({
  headingStyle: 'atx',
  bulletListMarker: '-',
  codeBlockStyle: 'fenced',
  emDelimiter: '*',
  strongDelimiter: '**',
  linkStyle: 'inlined',
  br: '\\',
});
turndown.remove(['script', 'style', 'noscript', 'iframe', 'object', 'embed', 'form', 'template', 'head', 'title', 'meta', 'link'] as TurndownService.TagName[]);
turndown.addRule('safe-links', {
  filter: (node) => node.nodeName === 'A' && !/^(?:https?:|mailto:)/i.test(node.getAttribute('href') ?? ''),
  replacement: (content) => content,
});
turndown.addRule('safe-images', {
  filter: (node) => node.nodeName === 'IMG' && !/^https?:/i.test(node.getAttribute('src') ?? ''),
  replacement: () => '',
});
const escapeMarkdown = turndown.escape.bind(turndown);
turndown.escape = (text: string) => escapeMarkdown(text).replace(/</g, '&lt;');

const HTML_TAG = /<\/?[a-z][a-z0-9]*(?:\s[^>]*)?\/?>/i;

export function looksLikeHtml(text: string): boolean {
  return HTML_TAG.test(text);
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Plain text → the HTML it means: blank lines end paragraphs, single line breaks stay line breaks. */
function textToHtml(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((p) => `<p>${escapeHtml(p.trim()).replace(/[ \t]*\n[ \t]*/g, '<br>')}</p>`)
    .join('');
}

const BLOCK_TAG = /<(?:p|br|div|li|ul|ol|h[1-6]|table|blockquote|pre|section|article)\b/i;

/** Text with some inline HTML (links) but laid out with line breaks, as many feeds write notes: keep the breaks. */
function inlineHtmlToHtml(text: string): string {
  const lines = text.trim().split('\n').map((l) => l.trim());
  return lines
    .join('\n')
    .split(/\n{2,}/)
    .map((p) => `<p>${p.replace(/\n/g, '<br>')}</p>`)
    .join('');
}

export function notesToMarkdown(notes: string | undefined): string {
  if (!notes?.trim()) return '';
  const text = notes.replace(/\r\n?/g, '\n');
  const html = !looksLikeHtml(text) ? textToHtml(text) : BLOCK_TAG.test(text) || !text.includes('\n') ? text : inlineHtmlToHtml(text);
  return turndown
    .turndown(html)
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
