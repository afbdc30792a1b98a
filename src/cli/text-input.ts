/** Long text for the CLI from elsewhere than the command line: `--description -` reads stdin, `--edit` opens $VISUAL/$EDITOR. */
import type * as ChildProcess from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CairnError } from '../core/errors.js';
import type { OpContext } from '../ops/op.js';
import { loadOp } from '../ops/op-modules.js';
import { runOp } from '../ops/run-op.js';
import type { BoundCommand } from './op-command.js';

// child_process is loaded only when an editor opens: it brings net, streams and dgram with it, which would slow every command's start.
const requireBuiltin = createRequire(import.meta.url);

/** Text fields whose value "-" means "read it from stdin". */
const STDIN_FIELDS = ['description', 'appendDescription', 'body', 'comment', 'details'];

function readStdin(flag: string): string {
  if (process.stdin.isTTY) {
    process.stderr.write(`Reading ${flag} from stdin; end with Ctrl-D.\n`);
  }
  return readFileSync(0, 'utf8').replace(/\r?\n$/, '');
}

/** Opens `initial` in the user's editor and returns what they saved (trailing newline dropped). */
export function editText(initial: string, what: string, env: NodeJS.ProcessEnv = process.env): string {
  const editor = env.VISUAL || env.EDITOR;
  if (!editor) {
    throw new CairnError('VALIDATION_ERROR', `--edit opens $VISUAL or $EDITOR, and neither is set. Nothing was changed.`, {
      suggestions: ['export EDITOR=vi   (or nano, "code --wait", …)', `or pass the text with --${what} "…" or --${what} - (stdin)`],
    });
  }
  const dir = mkdtempSync(join(tmpdir(), 'cairn-edit-'));
  const file = join(dir, `${what}.md`);
  try {
    writeFileSync(file, initial);
    // Through the shell: EDITOR often carries arguments ("code --wait").
    const { spawnSync } = requireBuiltin('node:child_process') as typeof ChildProcess;
    const r = spawnSync(`${editor} ${JSON.stringify(file)}`, { shell: true, stdio: 'inherit' });
    if (r.status !== 0)
      throw new CairnError('VALIDATION_ERROR', `The editor (${editor}) exited with ${r.status ?? r.signal}; nothing was changed.`, { suggestions: ['Save and quit the editor normally'] });
    return readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Replaces "-" values with stdin and, with --edit, the editable field with what the editor returns. */
export async function resolveTextInputs(b: BoundCommand, input: Record<string, unknown>, opts: Record<string, unknown>, ctx: OpContext): Promise<Record<string, unknown>> {
  const out = { ...input };
  const fromStdin = STDIN_FIELDS.filter((f) => out[f] === '-');
  if (fromStdin.length > 1)
    throw new CairnError('VALIDATION_ERROR', `Only one flag can read stdin; got ${fromStdin.map((f) => b.labels.get(f) ?? f).join(' and ')}.`, {
      suggestions: ['Pass the other text on the command line'],
    });
  for (const f of fromStdin) out[f] = readStdin(b.labels.get(f) ?? f);
  const field = b.binding.editable;
  if (field && opts.edit === true) {
    if (fromStdin.length) throw new CairnError('VALIDATION_ERROR', '--edit and a "-" (stdin) value do not go together.', { suggestions: ['Use one of them'] });
    let initial = typeof out[field] === 'string' ? (out[field] as string) : '';
    // Editing an existing task or project starts from its current text.
    if (out[field] === undefined && typeof out.id === 'string') initial = ((await runOp((await loadOp('get_task'))!, ctx, { id: out.id })) as { task: Record<string, string> }).task[field] ?? '';
    else if (out[field] === undefined && typeof out.key === 'string' && b.op.name === 'update_project')
      initial = ((await runOp((await loadOp('get_project'))!, ctx, { key: out.key })) as { project: Record<string, string> }).project[field] ?? '';
    out[field] = editText(
      initial,
      field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
    );
  }
  return out;
}
