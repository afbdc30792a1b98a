/** The .gitignore Cairn writes into a new .cairn/ folder (`cairn init`, and `cairn import` where it makes the workspace). */
import { existsSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { WORKSPACE_DIR } from '../../workspace.js';

/**
 * What a team must never commit: the database and its WAL, SHM, journal and migration backups, and the
 * outbox of writes waiting for a server (entries, delivered/ and refused/). Written
 * once into .cairn/ (kept when it exists, so a team's own edits stay); share `cairn export` output or a
 * server instead.
 */
export const WORKSPACE_GITIGNORE = `# Cairn's workspace is local state: the database and its WAL/SHM files never belong in a commit.
# To share tasks, commit an export (cairn export) kept outside .cairn/, or share one server (cairn serve).
*.db
*.db-wal
*.db-shm
*.db-journal
*.db.bak-*
# Writes waiting for a server (cairn --remote): this machine's, and they may hold task text.
outbox/
`;

export function writeGitignore(dbPath: string): string | null {
  const dir = dirname(dbPath);
  const file = join(dir, '.gitignore');
  if (basename(dir) !== WORKSPACE_DIR || !existsSync(dir) || existsSync(file)) return null;
  writeFileSync(file, WORKSPACE_GITIGNORE);
  return file;
}
