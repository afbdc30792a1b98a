/** `cairn init`: creates the workspace (.cairn/cairn.db in the working directory) and optionally a first project rooted there. */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CairnError } from '../../core/errors.js';
import type { Project } from '../../core/model/project.js';
import { systemClock } from '../../core/ports.js';
import { findOp, runOp, type OpContext } from '../../ops/index.js';
import { DB_FILE, findWorkspace, openStore, WORKSPACE_DIR } from '../../workspace.js';
import { colorEnabled, painter } from '../render/color.js';
import { resolveActor, type GlobalOptions } from '../session.js';

/** `--json` output of init (no op behind it): where the workspace is, whether it was new, the project created. */
export interface InitResult {
  workspace: string;
  created: boolean;
  project: Project | null;
}

interface InitOptions extends GlobalOptions {
  key?: string;
  name?: string;
  template?: string;
}

/** Here, unless --db or CAIRN_DB names the file; an ancestor's workspace is deliberately not reused. */
function targetPath(o: InitOptions): string {
  const ws = findWorkspace({ db: o.db, cwd: process.cwd(), env: process.env });
  return ws.source === 'flag' || ws.source === 'env' ? ws.path : join(process.cwd(), WORKSPACE_DIR, DB_FILE);
}

async function init(o: InitOptions): Promise<InitResult> {
  if ((o.name || o.template) && !o.key) {
    throw new CairnError('VALIDATION_ERROR', '--name and --template describe the first project and need --key. Nothing was changed.', { suggestions: ['cairn init --key API --name "API server"'] });
  }
  const path = targetPath(o);
  const created = !existsSync(path);
  const store = openStore(path);
  const ctx: OpContext = { store, clock: systemClock, actor: resolveActor(o) };
  try {
    if (!o.key) {
      await store.write(async () => undefined); // an empty write creates and migrates the file
      return { workspace: path, created, project: null };
    }
    const input = { key: o.key, name: o.name ?? o.key, root: process.cwd(), ...(o.template ? { template: o.template } : {}) };
    const { project } = (await runOp(findOp('create_project')!, ctx, input)) as { project: Project };
    return { workspace: path, created, project };
  } finally {
    await store.close();
  }
}

function human(r: InitResult): string {
  const paint = painter(colorEnabled(process.stdout));
  const lines = [r.created ? `${paint('green', 'Initialized')} Cairn workspace ${r.workspace}` : `Cairn workspace already exists: ${r.workspace}`];
  if (r.project) lines.push(`${paint('green', 'Created')} project ${paint('bold', r.project.key)} (${r.project.name}), root ${r.project.root}`);
  lines.push(paint('dim', r.project ? `Next: cairn add "First task"` : 'Next: cairn project create KEY "Name" --root .'));
  return lines.join('\n');
}

export function addInitCommand(program: Command): void {
  program
    .command('init')
    .description('Create a workspace (.cairn/) here, optionally with a first project rooted here')
    .option('--key <KEY>', 'key of a first project (2–10 letters), rooted at this folder')
    .option('--name <name>', 'name of that project (default: the key)')
    .option('--template <name>', 'workflow template of that project: default|devplanner')
    .addHelpText('after', '\nExamples:\n  cairn init\n  cairn init --key API --name "API server"\n  cairn init --key PLAN --template devplanner')
    .action(async (_opts: unknown, cmd: Command) => {
      const o = cmd.optsWithGlobals<InitOptions>();
      const result = await init(o);
      process.stdout.write(`${o.json ? JSON.stringify(result, null, 2) : human(result)}\n`);
    });
}
