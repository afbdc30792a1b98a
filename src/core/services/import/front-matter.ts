/**
 * The YAML front matter markdown task files open with (DevPlanner cards, Backlog.md tasks), read
 * with js-yaml: the parser DevPlanner's gray-matter uses, so a card reads here as it reads there
 * (folded long titles, lists of maps such as taskMeta). js-yaml is loaded on first use, keeping it
 * out of the start-up of commands that never read markdown. Errors name the line.
 */
import { createRequire } from 'node:module';
import type * as JsYaml from 'js-yaml';

export interface FrontMatter {
  data: Record<string, unknown>;
  /** The body after the closing `---`. */
  content: string;
  error?: { line: number; field: string | null; problem: string };
}

let yaml: typeof JsYaml | undefined;
const requireLazily = createRequire(import.meta.url);

/** js-yaml, loaded on first use. */
export function jsYaml(): typeof JsYaml {
  return (yaml ??= requireLazily('js-yaml') as typeof JsYaml);
}

/** Dates as ISO strings, the way the rest of Cairn reads times. */
function plain(v: unknown): unknown {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? String(v) : v.toISOString();
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

/** Where the front matter ends: the text between the opening and closing `---` lines, and the body. */
export function splitFrontMatter(text: string): { yaml: string; content: string } | undefined {
  const src = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  if (!src.startsWith('---\n')) return undefined;
  const end = src.indexOf('\n---', 3);
  if (end < 0) return { yaml: src.slice(4), content: '' };
  const after = src.indexOf('\n', end + 1);
  return { yaml: src.slice(4, end + 1), content: after < 0 ? '' : src.slice(after + 1) };
}

export function parseFrontMatter(text: string): FrontMatter {
  const src = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  if (!src.startsWith('---\n')) return { data: {}, content: src };
  if (src.indexOf('\n---', 3) < 0) return { data: {}, content: src, error: { line: 1, field: null, problem: 'front matter is not closed by a "---" line' } };
  const { yaml: head, content } = splitFrontMatter(src)!;
  try {
    const data = jsYaml().load(head);
    if (data === undefined || data === null) return { data: {}, content };
    if (typeof data !== 'object' || Array.isArray(data)) return { data: {}, content, error: { line: 2, field: null, problem: 'front matter is not a map of "key: value" lines' } };
    return { data: plain(data) as Record<string, unknown>, content };
  } catch (err) {
    const e = err as { mark?: { line?: number }; reason?: string; message: string };
    return { data: {}, content, error: { line: (e.mark?.line ?? 0) + 2, field: null, problem: `front matter is not valid YAML (${e.reason ?? e.message.split('\n')[0]})` } };
  }
}
