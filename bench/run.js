// `npm run bench`: builds (or reuses cached) workspaces of 1k, 10k and 100k tasks, runs every section of
// bench/sections.js against each size in its own process, prints the tables and writes docs/benchmarks.md.
//   --quick            1k and 10k only
//   --sizes 1k,100k    pick sizes (also plain numbers)
//   --sections core    pick sections (default: all in bench/sections.js)
//   --rebuild          rebuild cached workspaces (cache: $CAIRN_BENCH_CACHE or <tmp>/cairn-bench)
//   --no-write         print only, leave docs/benchmarks.md and bench/baseline.json alone
// A section's block in docs/benchmarks.md is rewritten when the run measured it at every size it is
// measured at (all three, or its ONLY_AT sizes in bench/sections.js).
// Every run ends by comparing its figures with bench/baseline.json (lib/regressions.js) and flags
// any op more than 20% slower; it reports, never fails. Written runs record their figures there.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { machine, sectionTable, sizeName, workspaceTable, writeBlock } from './lib/report.js';
import { ONLY_AT, SECTIONS } from './sections.js';
import { cachedWorkspace, pruneCache } from './lib/workspace.js';
import { machineProbe } from './lib/machine-probe.js';
import { byBlock, compare, readBaseline, recordBaseline, regressionText } from './lib/regressions.js';

const here = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    sizes: { type: 'string' },
    sections: { type: 'string' },
    rebuild: { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
  },
});

const parseSize = (s) => Math.round(Number(s.trim().toLowerCase().replace(/k$/, '')) * (s.trim().toLowerCase().endsWith('k') ? 1000 : 1));
const sizes = args.sizes ? args.sizes.split(',').map(parseSize) : args.quick ? [1000, 10_000] : [1000, 10_000, 100_000];
if (sizes.some((n) => !Number.isInteger(n) || n < 10)) throw new Error(`--sizes: expected sizes like 1k,10k,100k, got ${args.sizes}`);
const names = args.sections ? args.sections.split(',').map((s) => s.trim()) : Object.keys(SECTIONS);
for (const n of names) if (!SECTIONS[n]) throw new Error(`--sections: unknown section "${n}"; known: ${Object.keys(SECTIONS).join(', ')}`);

const log = (msg) => process.stderr.write(`${msg}\n`);
const date = new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
log(`cairn bench · ${date} · ${machine()}`);
/** The code measured: HEAD, and whether the working tree held changes not yet committed. */
const measured = (() => {
  const git = (...a) => execFileSync('git', a, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no') ? ' with uncommitted changes' : ''}`;
  } catch {
    return 'commit unknown';
  }
})();

const ALL_SIZES = [1000, 10_000, 100_000];
/** The sizes a section runs at in this run: those asked for, narrowed to the ones it is measured at. */
const sizesOf = (name) => sizes.filter((s) => !ONLY_AT[name] || ONLY_AT[name].includes(s));
for (const n of names) if (sizesOf(n).length === 0) log(`section ${n} runs at ${ONLY_AT[n].map(sizeName).join(', ')} only: not run at ${sizes.map(sizeName).join(', ')}`);

// NODE_EXTRA_CA_CERTS names certificates that Node 20 parses as every process starts, 44 ms on the
// EPYC machine, whose sandbox sets it; Node 22 and 24 read them at their first TLS connection. Users
// rarely set it, and with it every bare Node start-up in the CLI and MCP sections would be slower by
// that much, hiding Cairn's share of a start. So nothing the benchmark starts inherits it.
if (process.env.NODE_EXTRA_CA_CERTS !== undefined) {
  log(`NODE_EXTRA_CA_CERTS is set (${process.env.NODE_EXTRA_CA_CERTS}): left out of every process the benchmark starts`);
  delete process.env.NODE_EXTRA_CA_CERTS;
}

// Before any section loads the machine: how fast it is in this spell (lib/machine-probe.js).
const probe = await machineProbe();
log(`machine probe: CPU ${probe.cpu.toFixed(2)} ms, pipe round trip ${probe.pipe.toFixed(3)} ms, spawn ${probe.spawn.toFixed(1)} ms`);

pruneCache();
const built = {};
for (const size of sizes) {
  if (!names.some((n) => sizesOf(n).includes(size))) continue;
  built[size] = cachedWorkspace(size, { rebuild: args.rebuild, log });
  log(`workspace ${sizeName(size)}: ${built[size].cached ? 'cached' : 'built'} (bulk load ${(built[size].ms / 1000).toFixed(1)} s)`);
}

const results = {};
for (const name of names) {
  results[name] = {};
  for (const size of sizesOf(name)) {
    log(`section ${name} · ${sizeName(size)}`);
    try {
      const out = execFileSync(process.execPath, ['--expose-gc', join(here, 'lib', 'run-section.js'), name, String(size)], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        timeout: 600_000,
      });
      results[name][size] = JSON.parse(out.trim().split('\n').pop());
    } catch (err) {
      // One broken section must not cost the others' results.
      log(`section ${name} · ${sizeName(size)} failed: ${err.message.split('\n')[0]}`);
      process.exitCode = 1;
    }
  }
}

const wsText = `## Workspaces\n\n${date} · ${measured} · ${machine()}\n\nGenerated by bench/lib/build-workspace.js: 6 projects, 30% of tasks with 1–3 blockers, 0–3 labels, 40% with checklists, 30% with comments, titles and Zipf-distributed descriptions from bench/lib/words.js. Bulk load is one transaction of plain INSERTs plus the derived open-blocker counts and the FTS index.\n\n${workspaceTable(built)}`;
console.log(`\n${wsText}`);
const write = !args['no-write'];
if (write && ALL_SIZES.every((n) => built[n])) writeBlock(join(here, '..', 'docs', 'benchmarks.md'), 'workspaces', wsText);
for (const name of names) {
  const first = Object.values(results[name])[0];
  if (!first) continue;
  const notes = Object.entries(results[name]).flatMap(([s, r]) => (r.notes ?? []).map((n) => `- ${sizeName(Number(s))}: ${n}`));
  const text = `## ${first.title}\n\n${date} · ${measured} · ${machine()}\n\n${first.method}\n\n${sectionTable(results[name])}\n\n${notes.join('\n')}`;
  console.log(`\n${text}`);
  // A section may name its block (the CLI section keeps one per Node major).
  const measuredAt = ONLY_AT[name] ?? ALL_SIZES;
  if (write && measuredAt.every((n) => results[name][n])) writeBlock(join(here, '..', 'docs', 'benchmarks.md'), first.block ?? name, text);
}

// What got slower since the committed figures. Every written run records into the baseline, partial
// ones too (only what they ran): figures are per section and size, each with its own date and machine.
const keyed = byBlock(results);
const baselineFile = join(here, 'baseline.json');
const baseline = readBaseline(baselineFile);
const compared = compare(baseline, keyed, machine(), probe);
console.log(`\n## Compared with the committed figures\n\n${regressionText(compared, sizeName)}`);
if (!args['no-write']) recordBaseline(baselineFile, baseline, keyed, { date, machine: machine(), probe });
