/**
 * Where `cairn export` may write: the markdown export's files only inside `--out`, checked after
 * every path is resolved (`..`, absolute parts, a symbolic link out of the folder), and a file or
 * folder in the way named as such instead of surfacing as INTERNAL. Names come from
 * `markdownFolderOf` (sanitised keys); this is the second wall, for a key that still slipped in.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { CairnError } from '../errors.js';

const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
};

const inTheWay = (path: string, wanted: 'file' | 'folder', err?: unknown) =>
  new CairnError(
    'VALIDATION_ERROR',
    `${path} is in the way: the export writes a ${wanted} there${err ? ` (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` : ''}. Nothing more was written.`,
    {
      suggestions: [wanted === 'folder' ? 'Move it aside, or export to another folder with --out DIR' : 'Move it aside, or export to another path with --out'],
    },
  );

/** `--out` for a single file (JSONL): a folder there is a named error, and its parent folder is made. */
export function prepareOutFile(out: string): void {
  if (existsSync(out) && statSync(out).isDirectory()) throw inTheWay(out, 'file');
  try {
    mkdirSync(dirname(out), { recursive: true });
  } catch (err) {
    throw inTheWay(dirname(out), 'folder', err);
  }
}

/** The markdown export's folder: writes files by relative path, each proven to stay inside it. */
export class ExportFolder {
  readonly #root: string;
  readonly #real: string;
  readonly #written = new Map<string, Set<string>>();

  constructor(out: string) {
    this.#root = resolve(out);
    try {
      mkdirSync(this.#root, { recursive: true });
    } catch (err) {
      throw inTheWay(this.#root, 'folder', err);
    }
    if (!statSync(this.#root).isDirectory()) throw inTheWay(this.#root, 'folder');
    this.#real = realpathSync(this.#root);
  }

  /** Writes `rel` (FOLDER/NAME) unless it already holds `content`. */
  write(rel: string, content: string): void {
    const file = resolve(this.#root, rel);
    const folder = dirname(file);
    if (!inside(this.#root, file) || dirname(folder) !== this.#root) throw outside(rel);
    const dir = relative(this.#root, folder);
    if (!this.#written.has(dir)) {
      try {
        mkdirSync(folder, { recursive: true });
      } catch (err) {
        throw inTheWay(folder, 'folder', err);
      }
      // The folder itself may be a link leading elsewhere.
      if (!lstatSync(folder).isDirectory() || dirname(realpathSync(folder)) !== this.#real) throw outside(rel);
      this.#written.set(dir, new Set());
    }
    this.#written.get(dir)!.add(file.slice(folder.length + 1));
    if (existsSync(file)) {
      const st = lstatSync(file);
      if (!st.isFile()) throw inTheWay(file, 'file');
      if (readFileSync(file, 'utf8') === content) return;
    }
    writeFileSync(file, content);
  }

  /** Removes task files of tasks no longer exported from the folders written (`isTaskFile` names which files are its own). */
  prune(isTaskFile: (dir: string, name: string) => boolean): void {
    for (const [dir, names] of this.#written) {
      for (const f of readdirSync(resolve(this.#root, dir))) if (isTaskFile(dir, f) && !names.has(f)) rmSync(resolve(this.#root, dir, f));
    }
  }
}

const outside = (rel: string) =>
  new CairnError('VALIDATION_ERROR', `Refused to write ${JSON.stringify(rel)}: it would land outside the --out folder. Nothing more was written.`, {
    suggestions: ['Run cairn doctor: a project key should be 2–10 letters'],
  });
