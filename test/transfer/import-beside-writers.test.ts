/**
 * An import beside agents that keep writing. On PostgreSQL the import must not stall them: it used
 * to, for its whole run, because creating its project moved a counter row that every writer's first
 * event also needed (and its own events took the feed counter from the first one). It now numbers its
 * events at its end, and the feed counter has a row of its own. On SQLite one writer goes at a time,
 * so writers wait for the import's transaction; on both, nothing is lost and the feed has no gap.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { onPostgres } from '../helpers/engine.js';
import { freshWorkspaces, importInto } from './helpers.js';

const fresh = freshWorkspaces();
const N = 1500;

describe('an import beside writers', () => {
  it(onPostgres ? 'writers in another project keep landing while it runs' : 'writers wait for it and then land', async () => {
    const c = fresh();
    const dir = join(c.ws.dir, 'repo');
    mkdirSync(join(dir, '.beads'), { recursive: true });
    const lines = Array.from({ length: N }, (_, k) =>
      JSON.stringify({
        id: `bd-${k + 1}`,
        title: `Issue ${k + 1}`,
        status: 'open',
        priority: 2,
        issue_type: 'task',
        labels: k % 3 ? [] : ['imported'],
        dependencies: k % 10 === 9 ? [{ issue_id: `bd-${k + 1}`, depends_on_id: `bd-${k}`, type: 'blocks' }] : [],
        created_at: '2025-10-01T10:00:00Z',
        updated_at: '2025-10-01T10:00:00Z',
      }),
    );
    writeFileSync(join(dir, '.beads', 'issues.jsonl'), `${lines.join('\n')}\n`);
    await c.call('create_project', { key: 'LIVE', name: 'Live' });

    const agent = openCairn({ db: c.ws.db, actor: 'agent' });
    const landed: string[] = [];
    let duringImport = 0;
    let importing = true;
    try {
      const writing = (async () => {
        while (importing) {
          const { task } = await agent.call('create_task', { project: 'LIVE', title: `live ${landed.length}` });
          landed.push(task.id);
          if (importing) duringImport++;
        }
      })();
      const report = await importInto(c, { path: dir });
      importing = false;
      await writing;
      expect(report.tasks.created).toBe(N);
      if (onPostgres) expect(duringImport, 'creates that completed while the import ran').toBeGreaterThanOrEqual(10);

      // Nothing lost: every acknowledged create is there once, and so is every imported task.
      const live = await c.call('list_tasks', { project: 'LIVE', limit: 200 });
      expect(live.total).toBe(landed.length);
      expect(new Set(landed).size).toBe(landed.length);
      const imported = await c.call('list_tasks', { project: report.projects.created[0]!, limit: 1 });
      expect(imported.total).toBe(N);
      // The feed: every number from 1 to the last, once, and the import's N task.imported events among them.
      const seqs: number[] = [];
      let imports = 0;
      for (let since = 0; ; ) {
        const page = await c.call('changes_since', { since, limit: 1000 });
        seqs.push(...page.events.map((e) => e.seq));
        imports += page.events.filter((e) => e.type === 'task.imported').length;
        if (!page.hasMore) break;
        since = page.lastSeq;
      }
      expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
      expect(imports).toBe(N);
    } finally {
      importing = false;
      await agent.close();
    }
  }, 120_000);
});
