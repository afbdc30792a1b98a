// CLI section: wall time of `cairn` commands an agent runs through the shell, each paired with bare Node
// (`node -e 0`) in the same round so that a busy moment of the shared machine slows both. The ratio is
// the median over rounds of command ÷ bare Node. Run it under each Node (Node 24 needs a checkout whose
// better-sqlite3 was built for it): the figures are for the Node that runs the bench.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Database } from '../dist/store/sqlite/native.js';
import { percentile } from './lib/stats.js';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'cairn.js');
const ROUNDS = 21;

/** Wall milliseconds of one run; the command must succeed, or the figure would time an error. */
function wall(args, env) {
  const t0 = performance.now();
  // Output into a pipe, as an agent's shell tool reads it (the CLI writes a pipe straight to its fd).
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 16 * 1024 * 1024 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(0, 300)}`);
  return ms;
}

export const section = {
  name: 'cli',
  async run({ db, log }) {
    const s = new Database(db, { readonly: true });
    const key = s.prepare("SELECT p.key || '-' || t.seq FROM tasks t JOIN projects p ON p.uid = t.project_uid WHERE t.deleted_at IS NULL ORDER BY t.num LIMIT 1").pluck().get();
    const project = key.split('-')[0];
    s.close();
    const env = { ...process.env, CAIRN_DB: db, NO_COLOR: '1' };
    const commands = {
      version: ['--version'],
      ready: ['ready', '--project', project],
      list: ['list', '--project', project],
      show: ['show', key],
      search: ['search', 'token refresh'],
      // What a first command pays before bin/cairn.js has made its code cache (or with it turned off).
      readyUncached: ['ready', '--project', project],
    };
    const envOf = (k) => (k === 'readyUncached' ? { ...env, CAIRN_CODE_CACHE: '0' } : env);
    for (const [k, args] of Object.entries(commands)) wall([CLI, ...args], envOf(k)); // warm the page cache and the code caches
    const bare = [];
    const runs = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
    log(`${ROUNDS} rounds`);
    for (let i = 0; i < ROUNDS; i++) {
      const b = wall(['-e', '0'], env);
      bare.push(b);
      for (const [k, args] of Object.entries(commands)) runs[k].push(wall([CLI, ...args], envOf(k)));
    }
    const sorted = (xs) => [...xs].sort((a, b) => a - b);
    const bareSorted = sorted(bare);
    const label = {
      version: '`cairn --version`',
      ready: '`cairn ready --project P`',
      list: '`cairn list --project P`',
      show: '`cairn show KEY-N`',
      search: '`cairn search "token refresh"`',
      readyUncached: '`cairn ready --project P` without the code cache (CAIRN_CODE_CACHE=0)',
    };
    const major = process.versions.node.split('.')[0];
    return {
      // One block per Node major in docs/benchmarks.md, so a run under Node 24 leaves the Node 20 figures in place.
      block: `cli-node${major}`,
      title: `CLI start-up, Node ${major}`,
      method:
        `Wall time from spawn to exit of the built bin (bin/cairn.js) with the workspace in CAIRN_DB, in ${ROUNDS} rounds, each round running bare Node (\`node -e 0\`) and then every command once; ` +
        "the ratio is the median over rounds of the command ÷ bare Node in the same round. A warm-up run of each command makes bin/cairn.js's code cache (under ~/.cache/cairn), which the timed runs use as every command after a user's first does; one row times `ready` without it. Output goes into a pipe, as an agent reads it. " +
        `Node ${process.version}: run the section under each Node to compare.`,
      metrics: [
        { key: 'bare', label: 'bare Node (`node -e 0`)', p50: percentile(bareSorted, 50), p99: bareSorted[bareSorted.length - 1], n: bare.length },
        ...Object.keys(commands).map((k) => {
          const ms = sorted(runs[k]);
          return { key: `${k}Ms`, label: label[k], p50: percentile(ms, 50), p99: ms[ms.length - 1], n: ms.length };
        }),
      ],
      values: Object.keys(commands).map((k) => ({
        key: k,
        label: `${label[k]} ÷ bare Node`,
        value: percentile(sorted(runs[k].map((ms, i) => ms / bare[i])), 50),
        unit: '×',
        ...(k === 'readyUncached' ? {} : { target: { max: 1.5 } }),
      })),
      notes: [`Node ${process.version}; bare Node p50 ${percentile(bareSorted, 50).toFixed(1)} ms`],
    };
  },
};
