// Transfer section: `cairn export` (JSONL) of the whole generated workspace to a file, then `cairn import`
// of that file into an empty workspace (one transaction, ids, versions and history kept), in-process
// through the same services the CLI calls. Three runs each (a fresh empty workspace per import), so a
// busy moment on a shared machine shows as one slow run rather than as the figure; CPU time beside wall.
import { once } from 'node:events';
import { createWriteStream, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openCairn } from '../dist/index.js';
import { systemClock } from '../dist/core/ports.js';
import { exportJsonl } from '../dist/core/services/export.js';
import { runImport } from '../dist/core/services/import/index.js';
import { measure, peakRssMb } from './lib/stats.js';

const ctxOf = (cairn) => ({ store: cairn.store, clock: systemClock, actor: 'bench' });
const RUNS = 3;
const runs = { warmup: 0, iterations: RUNS, budgetMs: Infinity };

export const section = {
  name: 'transfer',
  async run({ size, db, dir, log }) {
    const file = join(dir, 'export.jsonl');
    const source = openCairn({ db, actor: 'bench' });
    let counts;
    log('export');
    const exported = await measure(async () => {
      const out = createWriteStream(file);
      counts = await exportJsonl(ctxOf(source), { includeArchived: true }, async (chunk) => {
        if (!out.write(chunk)) await once(out, 'drain');
      });
      out.end();
      await once(out, 'close');
    }, runs);
    await source.close();
    global.gc?.();
    const exportRss = peakRssMb();

    log('import');
    let target;
    let report;
    const targetDir = (i) => join(dir, `imported-${i}`);
    const imported = await measure(async () => {
      report = await runImport(ctxOf(target), { path: file, from: 'cairn' });
    }, {
      ...runs,
      // An existing, empty workspace, as `cairn init` leaves it (a write to a missing file first rehearses on an empty schema).
      setup: async (i) => {
        if (target) {
          await target.close();
          rmSync(targetDir(i - 1), { recursive: true, force: true });
        }
        target = openCairn({ db: join(targetDir(i), '.cairn', 'cairn.db'), actor: 'bench' });
        await target.store.write(async () => undefined);
      },
    });
    log('re-import (nothing to change)');
    let again;
    const reimported = await measure(async () => {
      again = await runImport(ctxOf(target), { path: file, from: 'cairn' });
    }, runs);
    await target.close();
    const mb = statSync(file).size / 1e6;
    const metric = (key, label, m, target) => ({ key, label, p50: m.p50, p99: m.p99, cpuP50: m.cpuP50, n: m.n, ...(target ? { target: { p50: target } } : {}) });
    return {
      title: 'Export and import',
      method: `cairn export (JSONL, archived included) of the ${size.toLocaleString('en')}-task workspace to a file, then cairn import of that file into an empty workspace, then the same import again; in-process, ${RUNS} runs each (p50 = median, p99 column = slowest, a fresh empty workspace per import).`,
      metrics: [
        metric('export', `export ${counts.tasks} tasks`, exported, 5000),
        metric('import', `import ${report.tasks.created} tasks`, imported, 15000),
        metric('reimport', `re-import (${again.tasks.unchanged} unchanged)`, reimported),
      ],
      values: [
        { key: 'exportRss', label: 'peak RSS after export', value: exportRss, unit: 'MB', target: { max: 250 } },
        { key: 'rss', label: 'peak RSS after import (whole process)', value: peakRssMb(), unit: 'MB', target: { max: 250 } },
        { key: 'size', label: 'export file', value: mb, unit: 'MB' },
      ],
      notes: [`${counts.projects} projects, ${counts.tasks} tasks, ${counts.comments} comments, ${counts.events} events exported`],
    };
  },
};
