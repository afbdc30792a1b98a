// Transfer section: `cairn export` (JSONL) of the whole generated workspace to a file, then `cairn import`
// of that file into an empty workspace (one transaction, ids, versions and history kept), in-process
// through the same services the CLI calls. One run each: these are bulk operations measured end to end.
import { once } from 'node:events';
import { createWriteStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { openCairn } from '../dist/index.js';
import { systemClock } from '../dist/core/ports.js';
import { exportJsonl } from '../dist/core/services/export.js';
import { runImport } from '../dist/core/services/import/index.js';
import { peakRssMb } from './lib/stats.js';

const ctxOf = (cairn) => ({ store: cairn.store, clock: systemClock, actor: 'bench' });

export const section = {
  name: 'transfer',
  async run({ size, db, dir, log }) {
    const file = join(dir, 'export.jsonl');
    const source = openCairn({ db, actor: 'bench' });
    log('export');
    const out = createWriteStream(file);
    let t0 = performance.now();
    const counts = await exportJsonl(ctxOf(source), { includeArchived: true }, async (chunk) => {
      if (!out.write(chunk)) await once(out, 'drain');
    });
    out.end();
    await once(out, 'close');
    const exportMs = performance.now() - t0;
    await source.close();
    global.gc?.();
    const exportRss = peakRssMb();

    log('import');
    const target = openCairn({ db: join(dir, 'imported', '.cairn', 'cairn.db'), actor: 'bench' });
    // An existing, empty workspace, as `cairn init` leaves it (a write to a missing file first rehearses on an empty schema).
    await target.store.write(async () => undefined);
    t0 = performance.now();
    const report = await runImport(ctxOf(target), { path: file, from: 'cairn' });
    const importMs = performance.now() - t0;
    log('re-import (nothing to change)');
    t0 = performance.now();
    const again = await runImport(ctxOf(target), { path: file, from: 'cairn' });
    const reimportMs = performance.now() - t0;
    await target.close();
    const mb = statSync(file).size / 1e6;
    return {
      title: 'Export and import',
      method: `cairn export (JSONL, archived included) of the ${size.toLocaleString('en')}-task workspace to a file, then cairn import of that file into an empty workspace, then the same import again; in-process, one run each.`,
      metrics: [
        { key: 'export', label: `export ${counts.tasks} tasks`, p50: exportMs, p99: exportMs, n: 1, target: { p50: 5000 } },
        { key: 'import', label: `import ${report.tasks.created} tasks`, p50: importMs, p99: importMs, n: 1, target: { p50: 15000 } },
        { key: 'reimport', label: `re-import (${again.tasks.unchanged} unchanged)`, p50: reimportMs, p99: reimportMs, n: 1 },
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
