/**
 * Every documented example runs (issue 20, item 4): each `cairn …` line in a sh/bash block of README.md
 * and docs/*.md is run through the built CLI in a scratch workspace and must exit 0.
 *
 * - By default each line runs alone on a fresh copy of a seeded workspace (projects API, CORE, OLD;
 *   tasks API-1…API-4; see SEED), so examples do not depend on each other.
 * - `<!-- examples: sequence -->` before a block runs its lines in order in one empty folder (a walkthrough).
 * - `<!-- examples: skip REASON -->` before a block skips it (servers that run until stopped).
 * - SETUP below gives the few lines that need a state first (a deleted task to restore, a claim to release).
 * - `echo TEXT | cairn …` is run with TEXT on stdin; `a && b` runs both.
 * - Servers (`cairn mcp`, `cairn serve`) run until stopped: their lines run with --help added, which
 *   still fails on a flag or value the command does not have.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Database } from '../src/store/sqlite/native.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin/cairn.js');
const MAIN_URL = new URL('../dist/cli/main.js', import.meta.url).href;
const STDOUT_URL = new URL('../dist/cli/stdout.js', import.meta.url).href;
const FILES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

/** The seeded workspace every example starts from (run in order, with CAIRN_PROJECT=API). */
const SEED: string[][] = [
  ['init', '--key', 'API', '--name', 'API server'],
  ['project', 'create', 'CORE', 'Core library', '--aliases', '@acme/core-lib'],
  ['project', 'create', 'OLD', 'Old project'],
  ['add', 'Add login endpoint', '--priority', 'high', '--labels', 'backend,auth'],
  ['add', 'Document login', '--blocked-by', 'API-1'],
  ['add', 'Rate limit the login', '--checklist', 'design', '--checklist', 'build', '--checklist', 'test', '--checklist', 'docs', '--checklist', 'ship'],
  ['update', 'API-3', '--priority', 'low'],
  ['update', 'API-3', '--labels', 'backend'], // API-3 is at version 4 (the --expected-version 4 example)
  ['add', 'Parser bug', '--project', 'CORE', '--kind', 'bug'],
  ['comment', 'API-3', 'Looked into the rate limit'],
];

/**
 * Lines that need a state first, by their text as documented (with its comment when two lines read
 * alike): `run` are cairn commands run before them (in `cwd` when given: relative to the example's
 * folder, `~` being the test's home), `copy` puts fixture files in place, `castleDb` builds Castle's
 * database from its fixture, `empty` starts from an empty folder instead of the seeded workspace.
 */
interface Setup {
  run?: string[][];
  cwd?: string;
  copy?: Array<{ from: string; to: string }>;
  castleDb?: string;
  empty?: boolean;
}
const LIB = '../core-lib';
/** A DevPlanner workspace (its fixture) in the test's home, for the link examples. */
const DP_WORKSPACE = { from: 'test/fixtures/import/devplanner', to: '~/dp-workspace' };
const SETUP: Record<string, Setup> = {
  'cairn restore API-3': { run: [['delete', 'API-3']] },
  'cairn release API-3': { run: [['start', 'API-3']] },
  'cairn release API-3 --force --to-status backlog': { run: [['start', 'API-3', '--as', 'agent:other']] },
  'cairn unblock API-3 --by API-1': { run: [['block', 'API-3', '--by', 'API-1']] },
  'cairn archive API-3 --restore': { run: [['archive', 'API-3']] },
  'cairn project archive OLD --restore': { run: [['project', 'archive', 'OLD']] },
  'cairn project create API "API server" --root .': { empty: true, run: [['init']] },
  'cairn mcp-config --client claude-desktop --project ~/src/api': { run: [['init', '--key', 'API']], cwd: '~/src/api' },
  'cairn handoff ../core-lib "Fix the parser" --idempotency-key api-12-parser': { run: [['init', '--key', 'LIB']], cwd: LIB },
  'cairn doc CORE-7 --repository ../core-lib --json': { run: [['init', '--key', 'CORE'], ...Array.from({ length: 7 }, (_, i) => ['add', `Library task ${i + 1}`])], cwd: LIB },
  'cairn import ~/Library/Application\\ Support/Castle/castle.db': { castleDb: '~/Library/Application Support/Castle/castle.db' },
  'cairn link ~/dp-workspace': { copy: [DP_WORKSPACE] },
  'cairn link ~/.config/Castle/castle.db': { castleDb: '~/.config/Castle/castle.db' },
  'cairn link ~/.config/Castle/castle.db --writable # only while Castle is closed': { castleDb: '~/.config/Castle/castle.db' },
  'cairn unlink ~/dp-workspace': { copy: [DP_WORKSPACE], run: [['link', '~/dp-workspace']] },
  'cairn unlink MM': { copy: [DP_WORKSPACE], run: [['link', '~/dp-workspace']] },
  'cairn link .': { copy: [{ from: 'test/fixtures/import/backlog/backlog', to: 'backlog' }] },
  'cairn link . --project APP': { copy: [{ from: 'test/fixtures/import/taskmaster/.taskmaster', to: '.taskmaster' }] },
  'cairn link ~/work/planner': { copy: [{ from: 'test/fixtures/import/devplanner', to: '~/work/planner' }] },
  'cairn links': { copy: [DP_WORKSPACE], run: [['link', '~/dp-workspace']] },
  'cairn unlink ~/work/planner': { copy: [{ from: 'test/fixtures/import/devplanner', to: '~/work/planner' }], run: [['link', '~/work/planner']] },
  'cairn import . --project APP': { empty: true, run: [['init']], copy: [{ from: 'test/fixtures/import/taskmaster/.taskmaster', to: '.taskmaster' }] },
  'cairn import . # the repository holding backlog/': { empty: true, run: [['init']], copy: [{ from: 'test/fixtures/import/backlog/backlog', to: 'backlog' }] },
  'cairn import . # the repository holding .beads/issues.jsonl': { empty: true, run: [['init']], copy: [{ from: 'test/fixtures/import/beads/.beads', to: '.beads' }] },
};

/** Commands that serve until stopped. */
const SERVERS = new Set(['mcp', 'serve']);

interface Example {
  file: string;
  line: number;
  text: string;
  /** What SETUP is looked up by: the text, or the text and its comment when the text alone is not in SETUP. */
  key: string;
  /** The commands of the line: argv after `cairn`, with any text piped in. */
  steps: Array<{ argv: string[]; stdin?: string }>;
}

/** Shell words of one line: quotes, backslash escapes, `#` comments, `&&` and `|` as separate words. */
function words(line: string): string[] {
  const out: string[] = [];
  let cur: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      if (end < 0) throw new Error(`unbalanced quote in: ${line}`);
      cur = (cur ?? '') + line.slice(i + 1, end).replace(c === '"' ? /\\(["\\$`])/g : /$^/g, '$1');
      i = end;
    } else if (c === '\\' && i + 1 < line.length) cur = (cur ?? '') + line[++i];
    else if (/\s/.test(c)) {
      if (cur !== null) out.push(cur);
      cur = null;
    } else if (c === '#' && cur === null) break;
    else if (c === '&' && line[i + 1] === '&' && cur === null) {
      out.push('&&');
      i++;
    } else if (c === '|' && cur === null) out.push('|');
    else cur = (cur ?? '') + c;
  }
  if (cur !== null) out.push(cur);
  return out;
}

/** The commands of a documented line, or undefined when it is not a cairn example. */
function stepsOf(line: string): Example['steps'] | undefined {
  const trimmed = line.trim();
  if (!/^(cairn |echo .*\| *cairn )/.test(trimmed)) return undefined;
  const steps: Example['steps'] = [];
  let stdin: string | undefined;
  let argv: string[] = [];
  const flush = () => {
    if (!argv.length) return;
    if (argv[0] !== 'cairn') throw new Error(`not a cairn command: ${argv.join(' ')} in ${line}`);
    const args = argv.slice(1);
    steps.push({ argv: SERVERS.has(args[0]!) ? [...args, '--help'] : args, ...(stdin !== undefined ? { stdin } : {}) });
    stdin = undefined;
    argv = [];
  };
  for (const w of words(trimmed)) {
    if (w === '&&') flush();
    else if (w === '|') {
      if (argv[0] !== 'echo') throw new Error(`only echo … | cairn is supported: ${line}`);
      stdin = `${argv.slice(1).join(' ')}\n`;
      argv = [];
    } else argv.push(w);
  }
  flush();
  return steps;
}

interface Block {
  file: string;
  mode: 'each' | 'sequence' | 'skip';
  examples: Example[];
}

function blocksOf(file: string): Block[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(sh|bash|shell)\s*$/.exec(lines[i]!);
    if (!fence) {
      if (/^```/.test(lines[i]!)) i = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
      if (i < 0) break;
      continue;
    }
    let j = i - 1;
    while (j >= 0 && lines[j]!.trim() === '') j--;
    const directive = /^<!-- examples: (sequence|skip)\b.*-->$/.exec(lines[j]?.trim() ?? '')?.[1] as 'sequence' | 'skip' | undefined;
    const block: Block = { file, mode: directive ?? 'each', examples: [] };
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) {
      const steps = stepsOf(lines[i]!);
      if (!steps) continue;
      const text = lines[i]!.replace(/\s+#\s.*$/, '').trim();
      const comment = /\s+(#\s.*)$/.exec(lines[i]!)?.[1]?.trim();
      block.examples.push({ file, line: i + 1, text, key: SETUP[text] || !comment ? text : `${text} ${comment}`, steps });
    }
    if (block.examples.length) blocks.push(block);
  }
  return blocks;
}

/** Runs argvs in one node process (main() per command, cwd and stdin-less), returning exit codes and output. */
function runBatch(items: Array<{ cwd: string; argv: string[]; env: Record<string, string | undefined> }>): Array<{ code: number; out: string }> {
  const script = `
    import { main } from ${JSON.stringify(MAIN_URL)};
    import { stdout } from ${JSON.stringify(STDOUT_URL)};
    // Output into a pipe skips the stream (src/cli/stdout.ts); taking it first routes it through the write captured here.
    stdout();
    const write = process.stdout.write.bind(process.stdout);
    const results = [];
    const base = { ...process.env };
    for (const item of JSON.parse(process.argv[1])) {
      process.chdir(item.cwd);
      for (const k of Object.keys(process.env)) if (!(k in base)) delete process.env[k];
      Object.assign(process.env, base);
      for (const [k, v] of Object.entries(item.env)) if (v === null) delete process.env[k]; else process.env[k] = v;
      let out = '';
      process.stdout.write = (s) => ((out += s), true);
      process.stderr.write = (s) => ((out += s), true);
      const code = await main(['node', 'cairn', ...item.argv]);
      results.push({ code, out });
    }
    process.stdout.write = write;
    write(JSON.stringify(results));`;
  const r = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', script, JSON.stringify(items.map((x) => ({ ...x, env: Object.fromEntries(Object.entries(x.env).map(([k, v]) => [k, v ?? null])) })))],
    {
      env: cleanEnv(),
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (r.status !== 0) throw new Error(`batch failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Array<{ code: number; out: string }>;
}

function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', CAIRN_ACTOR: 'tester', EDITOR: 'true', VISUAL: '' };
  for (const k of Object.keys(env)) if (k.startsWith('CAIRN_') && k !== 'CAIRN_ACTOR') delete env[k];
  return env;
}

const blocks = FILES.flatMap(blocksOf);

describe('documented examples', () => {
  let scratch: string;
  let home: string;
  let seed: string;
  const tilde = (p: string): string => (p.startsWith('~/') ? join(home, p.slice(2)) : p);
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'cairn-docs-'));
    home = join(scratch, 'home');
    seed = join(scratch, 'seed');
    mkdirSync(home);
    mkdirSync(seed);
    const results = runBatch([...SEED, ['show', 'API-3', '--json']].map((argv) => ({ cwd: seed, argv, env: { CAIRN_PROJECT: 'API', HOME: home } })));
    results.forEach((r, i) => expect(r.code, `seed step ${SEED[i]?.join(' ')}: ${r.out}`).toBe(0));
    expect(JSON.parse(results.at(-1)!.out).task.version, 'API-3 is at version 4 for the --expected-version 4 example').toBe(4);
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('finds the examples of README.md and docs/*.md', () => {
    expect(blocks.flatMap((b) => b.examples).length).toBeGreaterThan(80);
    expect(blocks.filter((b) => b.mode === 'sequence').map((b) => b.file)).toEqual(expect.arrayContaining(['README.md', 'docs/cli.md']));
    // Every SETUP entry still names a documented line (a renamed example would silently lose its setup).
    const keys = new Set(blocks.flatMap((b) => b.examples.map((e) => e.key)));
    expect(Object.keys(SETUP).filter((k) => !keys.has(k))).toEqual([]);
  });

  it('every example exits 0', () => {
    const failures: string[] = [];
    let n = 0;
    type Item = { cwd: string; argv: string[]; env: Record<string, string | undefined> };
    const batch: Item[] = [];
    const owners: Array<{ ex: Example; setup: boolean }> = [];
    const spawned: Array<{ ex: Example; item: Item; stdin: string }> = [];
    const prepare = (ex: Example, setup: Setup | undefined, cwd?: string): Item['env'] & { cwd: string } => {
      const dir = cwd ?? join(scratch, `ex-${++n}`);
      if (!cwd) {
        mkdirSync(dir);
        if (!setup?.empty) cpSync(join(seed, '.cairn'), join(dir, '.cairn'), { recursive: true });
      }
      const env = { HOME: home, ...(cwd || setup?.empty ? {} : { CAIRN_PROJECT: 'API' }) };
      for (const c of setup?.copy ?? []) cpSync(join(ROOT, c.from), c.to.startsWith('~/') ? tilde(c.to) : join(dir, c.to), { recursive: true });
      if (setup?.castleDb) {
        const file = tilde(setup.castleDb);
        mkdirSync(dirname(file), { recursive: true });
        // Examples share the home folder: the first that needs this database builds it.
        rmSync(file, { force: true });
        const db = new Database(file);
        db.exec(readFileSync(join(ROOT, 'test/fixtures/import/castle/make-castle-db.sql'), 'utf8'));
        db.close();
      }
      if (setup?.run) {
        const where = setup.cwd ? (setup.cwd.startsWith('~/') ? tilde(setup.cwd) : join(dir, setup.cwd)) : dir;
        mkdirSync(where, { recursive: true });
        for (const argv of setup.run) {
          batch.push({ cwd: where, argv: argv.map(tilde), env: { HOME: home } });
          owners.push({ ex, setup: true });
        }
      }
      return { ...env, cwd: dir };
    };
    const add = (ex: Example, where: Item['env'] & { cwd: string }) => {
      const { cwd, ...env } = where;
      for (const s of ex.steps) {
        const item = { cwd, argv: s.argv.map(tilde), env };
        if (s.stdin !== undefined) spawned.push({ ex, item, stdin: s.stdin });
        else {
          batch.push(item);
          owners.push({ ex, setup: false });
        }
      }
    };
    for (const b of blocks) {
      if (b.mode === 'skip') continue;
      if (b.mode === 'sequence') {
        const where = prepare(b.examples[0]!, { empty: true });
        for (const ex of b.examples) add(ex, { HOME: home, cwd: where.cwd });
      } else for (const ex of b.examples) add(ex, prepare(ex, SETUP[ex.key]));
    }
    const check = (ex: Example, code: number, out: string) => {
      if (code !== 0) failures.push(`${ex.file}:${ex.line}  ${ex.text}\n    exit ${code}: ${out.trim().split('\n').slice(0, 3).join('\n    ')}`);
    };
    runBatch(batch).forEach((r, i) => {
      const o = owners[i]!;
      if (o.setup && r.code !== 0) failures.push(`${o.ex.file}:${o.ex.line}  setup for ${o.ex.text} failed (exit ${r.code}): ${r.out.trim()}`);
      else if (!o.setup) check(o.ex, r.code, r.out);
    });
    for (const { ex, item, stdin } of spawned) {
      const r = spawnSync(process.execPath, [BIN, ...item.argv], { cwd: item.cwd, env: { ...cleanEnv(), ...item.env }, input: stdin, encoding: 'utf8' });
      check(ex, r.status ?? -1, r.stdout + r.stderr);
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });
});
