/** The docs a reader can find: the README links every page in docs/, and no page sends the reader to files the repository does not have. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const pages = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));

describe('the documentation index', () => {
  it('the README links every page in docs/', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const missing = pages.filter((p) => !readme.includes(`](docs/${p})`));
    expect(missing, "add them to the README's Documentation list").toEqual([]);
  });

  it('no page points at the design documents outside the repository', () => {
    for (const p of ['README.md', ...pages.map((f) => `docs/${f}`)]) {
      expect(readFileSync(join(ROOT, p), 'utf8'), p).not.toMatch(/shared\/(seeds|DESIGN)/);
    }
  });
});
