/**
 * Changes to a markdown file's front matter that leave everything else as it was: only the keys
 * Cairn writes are replaced, each dumped by js-yaml (what DevPlanner's gray-matter and Backlog.md
 * write with), so keys Cairn does not know (taskMeta, links, dispatch fields) keep their bytes.
 */
import { jsYaml } from '../../core/services/import/front-matter.js';

interface Block {
  key: string | undefined;
  lines: string[];
}

const KEY_LINE = /^(?:'([^']*)'|"([^"]*)"|([^\s#'"-][^:]*?)):(?:\s|$)/;

/** The front matter's lines grouped per top-level key (a key's block holds its value's further lines). */
function blocks(yaml: string): Block[] {
  const out: Block[] = [];
  const lines = yaml.endsWith('\n') ? yaml.slice(0, -1).split('\n') : yaml.split('\n');
  for (const line of yaml === '' ? [] : lines) {
    const m = KEY_LINE.exec(line);
    if (m) out.push({ key: m[1] ?? m[2] ?? m[3], lines: [line] });
    else if (out.length) out[out.length - 1]!.lines.push(line);
    else out.push({ key: undefined, lines: [line] });
  }
  return out;
}

/** `key: value` as js-yaml writes it, with its further lines (a folded title, a block list). */
export function dumpKey(key: string, value: unknown): string[] {
  const text = jsYaml().dump({ [key]: value }, { lineWidth: 80 });
  return text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
}

/**
 * The front matter with these keys set (undefined removes one); keys it lacks are added in the
 * order given, after the others.
 */
export function setKeys(yaml: string, updates: ReadonlyArray<readonly [string, unknown]>): string {
  const list = blocks(yaml);
  for (const [key, value] of updates) {
    const at = list.findIndex((b) => b.key === key);
    if (value === undefined) {
      if (at >= 0) list.splice(at, 1);
      continue;
    }
    const lines = dumpKey(key, value);
    if (at >= 0) list[at] = { key, lines };
    else list.push({ key, lines });
  }
  return list.map((b) => `${b.lines.join('\n')}\n`).join('');
}

/** A whole markdown file: front matter and body, as gray-matter's stringify lays it out. */
export function markdownFile(yaml: string, body: string): string {
  return `---\n${yaml}---\n${body.length && !body.endsWith('\n') ? `${body}\n` : body}`;
}
