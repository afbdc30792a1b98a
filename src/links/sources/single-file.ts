/**
 * What every source kept in one file shares (Castle's castle.db, Task Master's tasks.json, Beads'
 * issues.jsonl): one stamp to check, no folder to watch, and a read that collects an importer's items.
 */
import type { ImportItem, IncomingProject } from '../../core/services/import/model.js';
import type { SourceRead, SourceTask } from '../source.js';
import { stampOf } from '../stamps.js';

export abstract class SingleFileSource {
  readonly isFolder = false;

  constructor(readonly path: string) {}

  scan(): Map<string, string> {
    const s = stampOf(this.path);
    return s === undefined ? new Map() : new Map([['', s]]);
  }

  tracks(rel: string): boolean {
    return rel === '';
  }

  folders(): string[] {
    return [];
  }

  /**
   * The items an importer reads from the file, as a read of the whole file. An item read twice is
   * the same object (Castle's unchanged rows), so the engine keeps its hash. With `keepOnError`, a
   * file that fails to read (its owner saving it, a hand edit gone wrong) keeps what was read before,
   * reported as a warning.
   */
  protected async collect(items: AsyncIterable<ImportItem>, out: SourceRead, keepOnError: boolean): Promise<SourceRead> {
    try {
      for await (const item of items) {
        if (item.type === 'project') out.projects.push(item as IncomingProject);
        else out.tasks.push(Object.assign(item, { file: null }) as SourceTask);
      }
    } catch (err) {
      if (!keepOnError) throw err;
      out.warnings.push((err as Error).message.replace(/ Nothing was imported\.$/, ''));
      return { ...out, projects: [], tasks: [] };
    }
    (out.covered as Set<string>).add('');
    return out;
  }

  /** An empty read: nothing read, nothing covered (a missing file is not an empty one). */
  protected nothing(): SourceRead {
    return { projects: [], tasks: [], orders: [], warnings: [], covered: new Set() };
  }

  /** Whether the file is there. */
  protected exists(): boolean {
    return stampOf(this.path) !== undefined;
  }
}
