// Transfer section: `cairn export` (JSONL) of the whole generated workspace to a file, then `cairn import`
// of that file into an empty workspace (one transaction, ids, versions and history kept), in-process
// through the same services the CLI calls. Three runs each, so a busy moment on a shared machine shows
// as one slow run rather than as the figure; CPU time beside wall. Peak RSS is read after the first
// export and the first import, as one `cairn export` or `cairn import` process would reach it.
import { once } from 'node:events';
import { createWriteStream, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openCairn } from '../dist/index.js';
import { systemClock } from '../dist/core/ports.js';
import { exportJsonl } from '../dist/core/services/export.js';
import { runImport } from '../dist/core/services/import/index.js';
import { peakRssMb, percentile } from './lib/stats.js';

const ctxOf = (cairn) => ({ store: cairn.store, clock: systemClock, actor: 'bench' });
const RUNS = 3;

/** Wall and CPU milliseconds of one call. */
async function timed(fn) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { ms, cpu: (c.user + c.system) / 1000 };
}

/** p50 = median, p99 = slowest of the runs. */
function summary(key, label, runs, target) {
  const ms = runs.map((r) => r.ms).sort((a, b) => a - b);
  const cpu = runs.map((r) => r.cpu).sort((a, b) => a - b);
  return { key, label, p50: percentile(ms, 50), p99: ms[ms.length - 1], cpuP50: percentile(cpu, 50), n: runs.length, ...(target ? { target: { p50: target } } : {}) };
}

export const section = {
  name: 'transfer',
  async run({ size, db, dir, log }) {
    const file = join(dir, 'export.jsonl');
    let counts;
    const exportOnce = async () => {
      const source = openCairn({ db, actor: 'bench' });
      const out = createWriteStream(file);
      const t = await timed(async () => {
        counts = await exportJsonl(ctxOf(source), { includeArchived: true }, async (chunk) => {
          if (!out.write(chunk)) await once(out, 'drain');
        });
        out.end();
        await once(out, 'close');
      });
      await source.close();
      return t;
    };
    let target;
    let report;
    const targetDb = (i) => join(dir, `imported-${i}`, '.cairn', 'cairn.db');
    const importOnce = async (i) => {
      if (target) {
        await target.close();
        rmSync(join(dir, `imported-${i - 1}`), { recursive: true, force: true });
      }
      target = openCairn({ db: targetDb(i), actor: 'bench' });
      // An existing, empty workspace, as `cairn init` leaves it (a write to a missing file first rehearses on an empty schema).
      await target.store.write(async () => undefined);
      global.gc?.();
      return timed(async () => {
        report = await runImport(ctxOf(target), { path: file, from: 'cairn' });
      });
    };

    const exports = [];
    const imports = [];
    log('export');
    exports.push(await exportOnce());
    global.gc?.();
    const exportRss = peakRssMb();
    log('import');
    imports.push(await importOnce(0));
    const importRss = peakRssMb();
    for (let i = 1; i < RUNS; i++) {
      log(`export and import, run ${i + 1}`);
      global.gc?.();
      exports.push(await exportOnce());
      imports.push(await importOnce(i));
    }
    log('re-import (nothing to change)');
    let again;
    const reimports = [];
    for (let i = 0; i < RUNS; i++) {
      reimports.push(
        await timed(async () => {
          again = await runImport(ctxOf(target), { path: file, from: 'cairn' });
        }),
      );
    }
    await target.close();
    const mb = statSync(file).size / 1e6;
    return {
      title: 'Export and import',
      method: `cairn export (JSONL, archived included) of the ${size.toLocaleString('en')}-task workspace to a file, then cairn import of that file into an empty workspace, then the same import again; in-process, ${RUNS} runs each (p50 = median, p99 column = slowest; a fresh empty workspace per import). Peak RSS after the first export and after the first import.`,
      metrics: [
        summary('export', `export ${counts.tasks} tasks`, exports, 5000),
        summary('import', `import ${report.tasks.created} tasks`, imports, 15000),
        summary('reimport', `re-import (${again.tasks.unchanged} unchanged)`, reimports),
      ],
      values: [
        { key: 'exportRss', label: 'peak RSS after export', value: exportRss, unit: 'MB', target: { max: 250 } },
        { key: 'rss', label: 'peak RSS after import (whole process)', value: importRss, unit: 'MB', target: { max: 250 } },
        { key: 'size', label: 'export file', value: mb, unit: 'MB' },
      ],
      notes: [`${counts.projects} projects, ${counts.tasks} tasks, ${counts.comments} comments, ${counts.events} events exported`],
    };
  },
};
