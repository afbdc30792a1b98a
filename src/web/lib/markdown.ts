/**
 * A small markdown renderer for descriptions and comments. Every piece of text is HTML-escaped
 * before any markup is added, and links keep only http(s), mailto and relative targets (read by the
 * URL parser, as the browser reads them: core/rules/safe-url.ts), so what an
 * agent writes can never inject markup or script into the page.
 */

import { isSafeUrl } from '../../core/rules/safe-url.js';

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESC[c]!);

/** The link target as written when the URL parser (as the browser will) finds http, https, mailto or a relative link. */
function safeUrl(url: string): string | null {
  const u = url.trim();
  return isSafeUrl(u, { relative: true }) ? u : null;
}

/** Inline markup over already-escaped text: `code`, **bold**, *em*, [text](url). */
function inline(escaped: string): string {
  const codes: string[] = [];
  let s = escaped.replace(/`([^`]+)`/g, (_, c: string) => `\u0000${codes.push(`<code>${c}</code>`) - 1}\u0000`);
  s = s.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>').replace(/(^|[^*\w])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>');
  s = s.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (m, text: string, url: string) => {
    // The URL is escaped text: &amp; stays an entity inside the attribute, which is what HTML wants.
    const safe = safeUrl(url.replace(/&amp;/g, '&'));
    return safe ? `<a href="${escapeHtml(safe)}" target="_blank" rel="noopener noreferrer">${text}</a>` : m;
  });
  return s.replace(/\u0000(\d+)\u0000/g, (_, i: string) => codes[Number(i)]!);
}

export function renderMarkdown(src: string): string {
  const lines = src.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let para: string[] = [];
  let list: { tag: 'ul' | 'ol'; items: string[] } | null = null;
  const flush = () => {
    if (para.length) out.push(`<p>${inline(escapeHtml(para.join(' ')))}</p>`);
    para = [];
    if (list) out.push(`<${list.tag}>${list.items.map((i) => `<li>${i}</li>`).join('')}</${list.tag}>`);
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^```/.test(line)) {
      flush();
      const code: string[] = [];
      while (++i < lines.length && !/^```/.test(lines[i]!)) code.push(lines[i]!);
      out.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`);
      continue;
    }
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = /^\s*(?:([-*+])|(\d+)[.)])\s+(?:\[([ xX])\]\s+)?(.*)$/.exec(line);
    if (h) {
      flush();
      // Headings inside a card start at h3: the page and the panel own h1 and h2.
      const level = Math.min(6, h[1]!.length + 2);
      out.push(`<h${level}>${inline(escapeHtml(h[2]!))}</h${level}>`);
    } else if (item) {
      if (para.length) flush();
      const tag = item[1] ? 'ul' : 'ol';
      if (!list || list.tag !== tag) {
        flush();
        list = { tag, items: [] };
      }
      const box = item[3] ? (item[3] === ' ' ? '☐ ' : '☑ ') : '';
      list.items.push(box + inline(escapeHtml(item[4]!)));
    } else if (/^>\s?/.test(line)) {
      flush();
      out.push(`<blockquote>${inline(escapeHtml(line.replace(/^>\s?/, '')))}</blockquote>`);
    } else if (/^\s*$/.test(line)) {
      flush();
    } else if (/^(-{3,}|\*{3,})\s*$/.test(line)) {
      flush();
      out.push('<hr>');
    } else {
      if (list) flush();
      para.push(line.trim());
    }
  }
  flush();
  return out.join('\n');
}

/** A search excerpt (matches wrapped in **) as escaped HTML with <mark>. */
export function renderExcerpt(excerpt: string): string {
  return escapeHtml(excerpt).replace(/\*\*([^*]+)\*\*/g, '<mark>$1</mark>');
}
