/**
 * The YAML front matter markdown task files open with (DevPlanner cards, Backlog.md tasks): the
 * subset those tools write — scalars (plain, 'single' or "double" quoted), flow lists `[a, b]`,
 * block lists of `- item`, and one level of nested maps. Errors name the line.
 */

export interface FrontMatter {
  data: Record<string, unknown>;
  /** The body after the closing `---`. */
  content: string;
  error?: { line: number; field: string | null; problem: string };
}

function scalar(raw: string): unknown {
  const v = raw.trim();
  if (v === '' || v === '~' || v === 'null') return null;
  if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) {
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return v.slice(1, -1);
    }
  }
  if (v.startsWith("'") && v.endsWith("'") && v.length >= 2) return v.slice(1, -1).replace(/''/g, "'");
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  if (v.startsWith('[') && v.endsWith(']')) {
    const inner = v.slice(1, -1).trim();
    if (!inner) return [];
    const items: string[] = [];
    let cur = '';
    let quote: string | null = null;
    for (const ch of inner) {
      if (quote) {
        if (ch === quote) quote = null;
        cur += ch;
      } else if (ch === '"' || ch === "'") {
        quote = ch;
        cur += ch;
      } else if (ch === ',') {
        items.push(cur);
        cur = '';
      } else cur += ch;
    }
    items.push(cur);
    return items.map((i) => scalar(i));
  }
  return v;
}

export function parseFrontMatter(text: string): FrontMatter {
  const src = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  if (!src.startsWith('---\n')) return { data: {}, content: src };
  const end = src.indexOf('\n---', 3);
  if (end < 0) return { data: {}, content: src, error: { line: 1, field: null, problem: 'front matter is not closed by a "---" line' } };
  const lines = src.slice(4, end).split('\n');
  const after = src.indexOf('\n', end + 1);
  const content = after < 0 ? '' : src.slice(after + 1);
  const data: Record<string, unknown> = {};
  let key: string | null = null;
  for (const [i, line] of lines.entries()) {
    const lineNo = i + 2;
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const item = /^\s+-\s?(.*)$/.exec(line) ?? (key && /^-\s(.*)$/.exec(line));
    if (item && key) {
      const list = Array.isArray(data[key]) ? (data[key] as unknown[]) : (data[key] = []);
      (list as unknown[]).push(scalar(item[1]!));
      continue;
    }
    const nested = /^\s+([A-Za-z0-9_-]+):\s*(.*)$/.exec(line);
    if (nested && key) {
      const map = data[key] && typeof data[key] === 'object' && !Array.isArray(data[key]) ? (data[key] as Record<string, unknown>) : (data[key] = {});
      (map as Record<string, unknown>)[nested[1]!] = scalar(nested[2]!);
      continue;
    }
    const m = /^([A-Za-z0-9_-]+):\s*(.*)$/.exec(line);
    if (!m) return { data, content, error: { line: lineNo, field: key, problem: `"${line.trim()}" is not a "key: value" line` } };
    key = m[1]!;
    data[key] = m[2]!.trim() === '' ? null : scalar(m[2]!);
  }
  return { data, content };
}
