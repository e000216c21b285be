import { describe, expect, it } from 'vitest';
import { markdownToHtml, markdownToText } from './markdown.ts';

describe('markdownToHtml', () => {
  it('keeps what Markdown makes: headings, emphasis, lists, code, tables, links and images', () => {
    const html = markdownToHtml(
      '## Notes\n\n*Bees* and **honey**, `code`, ~~old~~.\n\n- [x] done\n- [Site](https://example.org "Home") and [page](/episodes/) and <mail@example.org>\n\n' +
        '| a | b |\n|:-|-:|\n| 1 | 2 |\n\n![Hive](https://example.org/hive.jpg)\n\n```js\nlet x = 1;\n```',
    );
    expect(html).toContain('<h2>Notes</h2>');
    expect(html).toContain('<em>Bees</em> and <strong>honey</strong>, <code>code</code>, <del>old</del>');
    expect(html).toContain('<input checked disabled type="checkbox" /> done');
    expect(html).toContain('<a href="https://example.org" title="Home">Site</a>');
    expect(html).toContain('<a href="/episodes/">page</a>');
    expect(html).toContain('<a href="mailto:mail@example.org">mail@example.org</a>');
    expect(html).toContain('<th align="left">a</th>');
    expect(html).toContain('<img src="https://example.org/hive.jpg" alt="Hive" />');
    expect(html).toContain('<pre><code class="language-js">let x = 1;\n</code></pre>');
  });

  it('drops what could run or mislead: scripts, handlers, styles, frames, and links to other schemes', () => {
    const hostile = [
      '<script>alert(1)</script>',
      '<img src=x onerror="alert(2)">',
      '<iframe src="javascript:alert(3)"></iframe>',
      '<style>body{display:none}</style>',
      '<a href="javascript:alert(4)">a</a>',
      '[b](javascript:alert(5))',
      '[c](&#106;avascript:alert(6))',
      '[d](data:text/html,<b>x</b>)',
      '<JaVaScRiPt:alert(7)>',
      '<details open ontoggle="alert(8)"><summary>s</summary>t</details>',
      '<p style="position:fixed">p</p>',
      '<form action="https://evil.example"><input name="q"></form>',
      '![e](javascript:alert(9))',
      '[f](//evil.example/x)',
    ].join('\n\n');
    const html = markdownToHtml(hostile);
    for (const bad of ['<script', 'onerror', '<iframe', '<style', 'ontoggle', 'style=', '<form', 'name="q"', 'alert(1)', 'alert(3)']) {
      expect(html.toLowerCase(), bad).not.toContain(bad.toLowerCase());
    }
    // Every address left is a web address (or relative); a link to anything else keeps its text, not its target.
    for (const [, attr, value] of html.matchAll(/\b(href|src)="([^"]*)"/g)) expect(value, attr).toMatch(/^(https?:\/\/[^/]|mailto:|\/[^/]|[^:/]+$)/);
    expect(html).toContain('<p><a>b</a></p>');
    expect(html).toContain('<img alt="e" />');
    expect(html).toContain('<details><summary>s</summary>t</details>');
  });

  it('leaves the plain text (Episode.desc, the search index) to markdownToText', () => {
    expect(markdownToText('A *bold* [link](https://example.org).')).toBe('A bold link.');
  });

  it('gives the words of HTML in the notes as the page shows them: blocks written as HTML kept, a script\'s body left out', () => {
    expect(markdownToText('<p>Our guest is Jane Doe, a glassblower.</p>')).toBe('Our guest is Jane Doe, a glassblower.');
    expect(markdownToText('<details><summary>Credits</summary>Music by X</details>')).toBe('Credits\nMusic by X');
    expect(markdownToText('Intro.\n\n<div>Sponsored by Acme Glass.</div>\n\nOutro.')).toBe('Intro.\nSponsored by Acme Glass.\nOutro.');
    expect(markdownToText('Text with <script>alert(1)</script> inline and here.')).toBe('Text with inline and here.');
    expect(markdownToText('x <style>.a{}</style> y <textarea>no</textarea> z')).toBe('x y z');
    expect(markdownToText('Tom &amp; Jerry <b>bold</b>\n\n<!-- a note to self -->\n\n- one\n- two')).toBe('Tom & Jerry bold\none\ntwo');
  });
});
