/** Backlog.md's backlog/ folder (placeholder until the fixture from the real tool is read). */
import { importError, type ImportItem } from './model.js';

export async function* readBacklog(path: string, project: string | undefined): AsyncGenerator<ImportItem> {
  void project;
  throw importError({ file: path }, null, 'Backlog.md import is not ready yet');
}
