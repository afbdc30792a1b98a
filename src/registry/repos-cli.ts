/** `cairn repos`: the repositories this machine knows (a dependency id finds its repository through them): list | add | forget. */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CairnError } from '../core/errors.js';
import type { RegisteredRepository } from '../core/registry-port.js';
import { workspaceRootOf } from '../core/places/repo-paths.js';
import { openStore } from '../workspace.js';
import { FileRegistry } from './repo-registry.js';
import { registryPath } from './user-registry.js';

/** What the CLI hands an extension (src/cli/extensions.ts CliRuntime), as far as these commands use it. */
interface CliRuntime {
  globals(cmd: Command): { json?: boolean | undefined };
  print<T>(out: T, json: boolean | undefined, human: (out: T) => string): void;
  table(headers: string[], rows: string[][]): string;
}

function registry(): FileRegistry {
  const file = registryPath();
  if (!file) {
    throw new CairnError('VALIDATION_ERROR', 'The repository registry is turned off (CAIRN_REGISTRY=off). Nothing was read or changed.', {
      suggestions: ['unset CAIRN_REGISTRY  (uses ~/.config/cairn/repos.json)', 'CAIRN_REGISTRY=/path/repos.json cairn repos'],
    });
  }
  return new FileRegistry(file, openStore);
}

function rows(list: RegisteredRepository[]): string[][] {
  return list.map((r) => [r.root, r.package ?? '', r.remote ?? '', r.projects.map((p) => [p.key, ...p.aliases].join('|')).join(', ')]);
}

export function registerReposCommands(cmd: Command, rt: CliRuntime): void {
  cmd
    .command('list', { isDefault: true })
    .description('Registered repositories (re-read; those whose workspace is gone are dropped)')
    .action(async (_o: unknown, c: Command) => {
      const reg = registry();
      const before = (await reg.list()).length;
      const repositories = await reg.refresh();
      const out = { registry: reg.location, repositories, dropped: before - repositories.length };
      rt.print(out, rt.globals(c).json, (o) =>
        [
          `${o.repositories.length} repositories registered (${o.registry})${o.dropped ? `; ${o.dropped} whose workspace is gone were dropped` : ''}`,
          ...(o.repositories.length ? [rt.table(['ROOT', 'PACKAGE', 'REMOTE', 'PROJECTS'], rows(o.repositories))] : ['Run cairn init (or cairn repos add) inside a repository to register it.']),
        ].join('\n'),
      );
    });
  cmd
    .command('add [path]')
    .description("Register the workspace of a repository (default: this folder's)")
    .action(async (path: string | undefined, _o: unknown, c: Command) => {
      const at = resolve(path ?? '.');
      const root = existsSync(at) ? workspaceRootOf(at) : undefined;
      if (!root) {
        throw new CairnError('NO_WORKSPACE', `${at} has no Cairn workspace (no .cairn/ there or in a parent folder), so there is nothing to register. Nothing was changed.`, {
          suggestions: [`cairn init  (inside ${at}: creates the workspace and registers it)`],
        });
      }
      const reg = registry();
      const store = openStore(resolve(root, '.cairn', 'cairn.db'));
      try {
        await reg.note(store);
        const entry = await reg.describe(store);
        if (!entry)
          throw new CairnError('NO_WORKSPACE', `The workspace in ${root} has no database yet (nothing was written to it), so there is nothing to register.`, {
            suggestions: ['cairn project create KEY "Name" --root .'],
          });
        rt.print(
          entry,
          rt.globals(c).json,
          (e) => `Registered ${e.root}${e.package ? ` (${e.package})` : ''}${e.remote ? ` [${e.remote}]` : ''}: ${e.projects.map((p) => p.key).join(', ') || 'no projects yet'}.`,
        );
      } finally {
        await store.close();
      }
    });
  cmd
    .command('forget <name-or-path>')
    .description('Remove a repository from the registry (its workspace is untouched)')
    .action((ref: string, _o: unknown, c: Command) => {
      const gone = registry().forget(ref);
      rt.print({ forgotten: gone }, rt.globals(c).json, (o) => o.forgotten.map((r) => `Forgot ${r.root} (its workspace is untouched; cairn repos add registers it again).`).join('\n'));
    });
}
