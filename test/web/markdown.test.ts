/** The board's markdown renderer: agents write descriptions and comments, so every piece of text is escaped and only safe links survive. */
import { describe, expect, it } from 'vitest';
import { escapeHtml, renderExcerpt, renderMarkdown } from '../../src/web/lib/markdown.js';

describe('board markdown', () => {
  it('renders the common subset', () => {
    const html = renderMarkdown('## Goal\nA **bold** and *em* word with `code`.\n\n- one\n- [x] two\n\n1. first\n\n```\nlet x = 1 < 2;\n```\n> quoted');
    expect(html).toContain('<h4>Goal</h4>');
    expect(html).toContain('<p>A <strong>bold</strong> and <em>em</em> word with <code>code</code>.</p>');
    expect(html).toContain('<ul><li>one</li><li>☑ two</li></ul>');
    expect(html).toContain('<ol><li>first</li></ol>');
    expect(html).toContain('<pre><code>let x = 1 &lt; 2;</code></pre>');
    expect(html).toContain('<blockquote>quoted</blockquote>');
  });

  it('escapes markup everywhere, also inside emphasis, code and link text', () => {
    for (const src of ['<script>alert(1)</script>', '**<img src=x onerror=alert(1)>**', '`<b>`', '[<i>x</i>](https://a.example)', '# <svg onload=alert(1)>', '- <iframe>']) {
      const html = renderMarkdown(src);
      expect(html).not.toMatch(/<(script|img|svg|iframe|i|b)[\s>]/);
    }
    expect(escapeHtml(`<a href="x" title='y'>&`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;');
  });

  it('keeps only http(s), mailto and relative link targets', () => {
    expect(renderMarkdown('[ok](https://example.com/a?b=1&c=2)')).toContain('<a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">ok</a>');
    expect(renderMarkdown('[rel](docs/x.md)')).toContain('href="docs/x.md"');
    expect(renderMarkdown('[abs](/board#x)')).toContain('href="/board#x"');
    expect(renderMarkdown('[mail](mailto:a@b.example)')).toContain('href="mailto:a@b.example"');
    // Browsers strip leading control characters and drop tabs: these are javascript: links to them.
    for (const bad of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,<b>x</b>',
      'vbscript:x',
      '\x01javascript:alert(1)',
      '\x1fjavascript:alert(1)',
      '\x0ejavascript:alert(1)',
      'java\tscript:alert(1)',
      'java\x0dscript:x',
      'file:///etc/passwd',
    ]) {
      expect(renderMarkdown(`[x](${bad})`)).not.toContain('<a ');
    }
    expect(renderMarkdown('[x](https://a.example/"onmouseover="alert(1))')).not.toMatch(/href="[^"]*"onmouseover/);
  });

  it('highlights search excerpts without trusting their text', () => {
    expect(renderExcerpt('…the **ledger** <b>x</b>…')).toBe('…the <mark>ledger</mark> &lt;b&gt;x&lt;/b&gt;…');
  });
});
