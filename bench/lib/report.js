// Formats section results as markdown tables and writes them into docs/benchmarks.md, each section
// between its own markers so sections (core, mcp, http) can be rerun and rewritten independently.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

const fmt = (v) => (v === undefined || Number.isNaN(v) ? '–' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v >= 1 ? v.toFixed(2) : v.toFixed(3));
export const sizeName = (n) => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));

function targetText(t, unit) {
  if (!t) return '';
  return [t.p50 !== undefined && `p50 ≤ ${t.p50} ${unit}`, t.p99 !== undefined && `p99 ≤ ${t.p99} ${unit}`, t.max !== undefined && `≤ ${t.max} ${unit}`].filter(Boolean).join(', ');
}

function meets(t, m) {
  if (!t || !m) return '';
  const ok = (t.p50 === undefined || m.p50 <= t.p50) && (t.p99 === undefined || m.p99 <= t.p99) && (t.max === undefined || m.value <= t.max);
  return ok ? 'yes' : '**no**';
}

/**
 * One table: a row per metric, p50/p99 (or the value) per size, the target and whether it is met: at the
 * largest size, or at the row's `targetSize` when it names one (issue 21's MCP targets are at 1k).
 */
export function sectionTable(bySize) {
  const sizes = Object.keys(bySize)
    .map(Number)
    .sort((a, b) => a - b);
  const largest = bySize[sizes[sizes.length - 1]];
  const judged = (row, kind) => {
    const at = row.targetSize !== undefined && bySize[row.targetSize] ? bySize[row.targetSize] : largest;
    return (at[kind] ?? []).find((y) => y.key === row.key);
  };
  const sizeNote = (row) => (row.targetSize !== undefined && row.target ? ` at ${sizeName(row.targetSize)}` : '');
  const head = ['operation', ...sizes.map((s) => `${sizeName(s)} p50 / p99 (cpu p50), ms`), `target (${sizeName(sizes[sizes.length - 1])})`, 'met'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const m of largest.metrics) {
    const cells = sizes.map((s) => {
      const x = bySize[s].metrics.find((y) => y.key === m.key);
      return x ? `${fmt(x.p50)} / ${fmt(x.p99)}${x.cpuP50 === undefined ? '' : ` (${fmt(x.cpuP50)})`}` : '–';
    });
    // A target may differ by size (a baseline per size): the judged size's own.
    const j = judged(m, 'metrics');
    const target = j?.target ?? m.target;
    lines.push(`| ${m.label} | ${cells.join(' | ')} | ${targetText(target, 'ms')}${sizeNote(m)} | ${meets(target, j)} |`);
  }
  for (const v of largest.values ?? []) {
    const cells = sizes.map((s) => {
      const x = (bySize[s].values ?? []).find((y) => y.key === v.key);
      return x ? `${fmt(x.value)} ${x.unit}` : '–';
    });
    const j = judged(v, 'values');
    const target = j?.target ?? v.target;
    lines.push(`| ${v.label} | ${cells.join(' | ')} | ${targetText(target, v.unit)}${sizeNote(v)} | ${meets(target, j)} |`);
  }
  return lines.join('\n');
}

export function workspaceTable(built) {
  const lines = ['| tasks | projects | with blockers | edges | labels | checklist items | comments | file | bulk load |', '|---|---|---|---|---|---|---|---|---|'];
  for (const [size, w] of Object.entries(built)) {
    const c = w.counts;
    lines.push(
      `| ${sizeName(Number(size))} | ${c.projects} | ${c.withBlockers} | ${c.edges} | ${c.labels} | ${c.checklistItems} | ${c.comments} | ${(w.bytes / 1048576).toFixed(0)} MB | ${(w.ms / 1000).toFixed(1)} s |`,
    );
  }
  return lines.join('\n');
}

export function machine() {
  const cpu = os.cpus()[0]?.model?.trim() ?? 'unknown CPU';
  return `${os.cpus().length} cores (${cpu}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, ${os.platform()} ${os.release()}, Node ${process.version}`;
}

const HEADER = `# Benchmarks

Measured by \`npm run bench\` (\`npm run bench -- --quick\` for 1k and 10k only; also \`--sizes 1k,100k\`, \`--sections core\`;
partial runs print without rewriting this file).
Each section below is rewritten when it is run; its date, machine and method are stated with it. Times are
milliseconds per call; p50 is the median. Benchmarks report, they never assert: compare against the targets
by reading the table.
Every run ends by comparing its figures with the committed ones in \`bench/baseline.json\` and lists any
figure more than 20% worse (slower, larger, or a lower rate), naming the run it is compared with and
saying when that run was on another machine and how much slower or faster the machine itself ran
(bench/lib/machine-probe.js); a run without \`--no-write\` records what it ran there.
`;

/** Replaces (or appends) the block between `<!-- bench:<name> -->` and `<!-- /bench:<name> -->`. */
export function writeBlock(file, name, body) {
  let doc = existsSync(file) ? readFileSync(file, 'utf8') : HEADER;
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  const block = `${start}\n${body.trim()}\n${end}`;
  const re = new RegExp(`${start}[\\s\\S]*?${end}`);
  doc = re.test(doc) ? doc.replace(re, block) : `${doc.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, doc);
}
