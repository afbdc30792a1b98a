/**
 * Fixtures for linked-source tests: a DevPlanner workspace copied from the import fixture, cards
 * read with gray-matter (the parser DevPlanner's app reads them with), and Castle's database built
 * and rewritten whole the way Castle's app saves it (sql.js exports the database and writes the file).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import matter from 'gray-matter';
import { Database } from '../../src/store/sqlite/native.js';

export const FIXTURES = resolve(__dirname, '..', 'fixtures', 'import');

export interface Scratch {
  dir: string;
  cleanup(): void;
}

export function scratch(prefix = 'cairn-link-'): Scratch {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A DevPlanner workspace (media-manager, the import fixture) at `dir`. */
export function devplannerWorkspace(dir: string): string {
  cpSync(join(FIXTURES, 'devplanner'), dir, { recursive: true });
  return dir;
}

/** A card as DevPlanner's app reads it: gray-matter's front matter and content, and its `- [ ]` tasks. */
export function readCardFile(file: string): { data: Record<string, any>; content: string; tasks: Array<{ text: string; checked: boolean }> } {
  const { data, content } = matter(readFileSync(file, 'utf8'));
  const tasks = content.split('\n').flatMap((l) => {
    const m = /^\s*-\s+\[([ xX])\]\s+(.+)$/.exec(l);
    return m ? [{ text: m[2]!.trim(), checked: m[1]!.toLowerCase() === 'x' }] : [];
  });
  return { data, content, tasks };
}

/** Writes a card the way DevPlanner's app does (gray-matter's stringify, in place). */
export function writeCardFile(file: string, data: Record<string, unknown>, content: string): void {
  writeFileSync(file, matter.stringify(content, data));
}

export const readJson = (file: string): any => JSON.parse(readFileSync(file, 'utf8'));

/** Castle's database as seeds 000 and 001 describe it, from the import fixture's SQL. */
export function castleDb(file: string, extraSql = ''): void {
  mkdirSync(resolve(file, '..'), { recursive: true });
  rmSync(file, { force: true });
  const db = new Database(file);
  db.exec(readFileSync(join(FIXTURES, 'castle', 'make-castle-db.sql'), 'utf8') + extraSql);
  db.close();
}

/**
 * Castle's app at work: it holds the database in memory, changes it there, and saves by writing the
 * whole image over the file in place (sql.js export + writeFileSync), as seed 000 describes.
 */
export class CastleApp {
  readonly db: InstanceType<typeof Database>;
  constructor(readonly file: string) {
    this.db = new Database(readFileSync(file));
  }
  run(sql: string, ...params: unknown[]): this {
    this.db.prepare(sql).run(...params);
    return this;
  }
  save(): void {
    writeFileSync(this.file, this.db.serialize());
  }
  close(): void {
    this.db.close();
  }
}
