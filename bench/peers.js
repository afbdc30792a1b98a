// Peers section: Cairn beside its peers, through the client hosts use. Task Master (task-master-ai) and
// Backlog.md (backlog.md), as scripts/install-real-tools.sh installs them into .ci/tools (the versions
// of test/fixtures/import/TOOL-VERSIONS), and `cairn mcp`, each spawned over stdio by the official v1
// SDK client as hosts do (tools/list, then callTool; bench/lib/round-trips.js), on a project of the same
// 1,000 tasks, five operations in the harness's order: create, list (one page), get, update status, next.
// A peer that is not installed is skipped and said so. Runs at the 1k size only (the projects are made
// here: the peers' files written in their own formats, Cairn's workspace imported from Task Master's).
// A no-work floor (bench/lib/replay-server.mjs answering with Cairn's recorded answers) is timed the
// same way: the client's and the pipes' share of the window, so "Cairn less the floor" is the server's.
// A second floor answers each call after keeping its CPU busy for Cairn's own server time (its p50 per
// operation): what the client, the pipes and the wake-ups cost around a server that takes that long.
// Only Cairn's row goes into the section's metrics, so bench/baseline.json compares Cairn's figures
// and never a peer's (or the floor's); theirs are in the table above it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { roundTrips } from './lib/round-trips.js';
import { rng } from './lib/random.js';
import { NOUNS, VERBS, VOCABULARY } from './lib/words.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TOOLS = join(ROOT, '.ci', 'tools', 'node_modules');
const CLI = join(ROOT, 'bin', 'cairn.js');
const SERVER_TIMING = join(ROOT, 'bench', 'lib', 'server-timing.mjs');
const REPLAY = join(ROOT, 'bench', 'lib', 'replay-server.mjs');
const FLOOR = "No-work floor (Cairn's answers replayed)";
const BUSY_FLOOR = "Floor at Cairn's server time (the same answers, each after that long busy)";
const TASKS = 1000;
// As the independent harness: 200 sequential timed calls per operation after a warm-up, the same for every server.
const WARMUP = Number(process.env.CAIRN_BENCH_PEERS_WARMUP ?? 20);
const ITER = 200;
// Backlog.md takes 0.3–1.2 s a call here: a peer's operation stops after 45 s of timed calls, so the
// section stays within run.js's 10 minutes per section (the notes give each operation's count).
const PEER_BUDGET_MS = 45_000;
const OPS = ['create', 'list', 'get', 'update', 'next'];
// The target: ten times the best peer, end to end through the SDK client, p50 at 1k tasks.
const TARGET = { create: 0.65, list: 1.1, get: 0.45, update: 1.2, next: 0.6 };
const TITLE = 'Peers: Task Master, Backlog.md and Cairn through the SDK client';

/** The versions the tests pin (test/fixtures/import/TOOL-VERSIONS). */
function pinned() {
  const text = readFileSync(join(ROOT, 'test', 'fixtures', 'import', 'TOOL-VERSIONS'), 'utf8');
  return Object.fromEntries(text.split('\n').map((l) => l.trim().split(/\s+/)));
}

const installedVersion = (pkg) => {
  const file = join(TOOLS, pkg, 'package.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : undefined;
};

/** The same 1,000 tasks for every server: titles, descriptions, statuses, priorities, and blockers on earlier tasks for 30%. */
function tasks() {
  const r = rng(38);
  const sentence = () =>
    `${Array.from({ length: r.int(6, 16) }, () => r.zipf(VOCABULARY))
      .join(' ')
      .replace(/^./, (c) => c.toUpperCase())}.`;
  return Array.from({ length: TASKS }, (_, i) => {
    const roll = r.int(0, 99);
    return {
      id: i + 1,
      title: `${r.pick(VERBS)} ${r.pick(NOUNS)} ${i + 1}`.replace(/^./, (c) => c.toUpperCase()),
      description: sentence(),
      status: roll < 30 ? 'done' : roll < 40 ? 'in-progress' : 'pending',
      priority: r.pick(['high', 'medium', 'medium', 'low']),
      dependencies: i > 10 && r.int(0, 9) < 3 ? [r.int(1, i)] : [],
    };
  });
}

/** Task Master's project: `task-master init` (offline), then .taskmaster/tasks/tasks.json in the shape its CLI writes (test/fixtures/import/taskmaster). */
function taskMasterProject(dir, list) {
  mkdirSync(dir, { recursive: true });
  execFileSync(process.execPath, [join(TOOLS, 'task-master-ai', 'dist', 'task-master.js'), 'init', '--yes', '--name', 'bench', '--skip-install', '--no-git', '--no-aliases'], {
    cwd: dir,
    stdio: 'ignore',
    timeout: 120_000,
  });
  const now = new Date().toISOString();
  const file = {
    master: {
      tasks: list.map((t) => ({
        id: t.id,
        title: t.title,
        description: t.description,
        details: '',
        testStrategy: '',
        status: t.status,
        dependencies: t.dependencies.map(String),
        priority: t.priority,
        subtasks: [],
        updatedAt: now,
      })),
      metadata: { version: '1.0.0', lastModified: now, taskCount: list.length, completedCount: list.filter((t) => t.status === 'done').length, tags: [] },
    },
  };
  mkdirSync(join(dir, '.taskmaster', 'tasks'), { recursive: true });
  writeFileSync(join(dir, '.taskmaster', 'tasks', 'tasks.json'), JSON.stringify(file, null, 2));
}

/** Backlog.md's project: `backlog init` (no git), then one backlog/tasks/task-N - Title.md per task, as `backlog task create` writes it. */
function backlogProject(dir, bin, list) {
  mkdirSync(dir, { recursive: true });
  execFileSync(bin, ['init', 'bench', '--defaults', '--no-git', '--integration-mode', 'mcp'], { cwd: dir, stdio: 'ignore', timeout: 60_000 });
  const STATUS = { pending: 'To Do', 'in-progress': 'In Progress', done: 'Done' };
  for (const t of list) {
    const text = [
      '---',
      `id: TASK-${t.id}`,
      `title: ${t.title}`,
      `status: ${STATUS[t.status]}`,
      'assignee: []',
      "created_date: '2026-11-25 00:00'",
      'labels: []',
      `dependencies: ${t.dependencies.length ? `\n${t.dependencies.map((d) => `  - TASK-${d}`).join('\n')}` : '[]'}`,
      `priority: ${t.priority}`,
      `ordinal: ${t.id * 1000}`,
      '---',
      '',
      '## Description',
      '',
      '<!-- SECTION:DESCRIPTION:BEGIN -->',
      t.description,
      '<!-- SECTION:DESCRIPTION:END -->',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'backlog', 'tasks', `task-${t.id} - ${t.title.replace(/[^A-Za-z0-9]+/g, '-')}.md`), text);
  }
}

/** Backlog.md's package runs a platform binary (bun-compiled); spawned directly, as its cli.js wrapper would with inherited stdio. */
function backlogBinary() {
  const dir = join(TOOLS, `backlog.md-${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`);
  const bin = join(dir, process.platform === 'win32' ? 'backlog.exe' : 'backlog');
  return existsSync(bin) ? bin : undefined;
}

const fmt = (v) => (v === undefined || Number.isNaN(v) ? '–' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v >= 1 ? v.toFixed(2) : v.toFixed(3));

/** The harness's table: a row per server, the speed-up over the best peer, the targets and whether Cairn meets them. */
function table(rows, names) {
  const head = ['p50, ms', 'create', 'list (one page)', 'get', 'update status', 'next'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const name of names) lines.push(`| ${name} | ${OPS.map((op) => (rows[name] ? fmt(rows[name][op]?.total.p50) : 'skipped')).join(' | ')} |`);
  const peers = names.filter((n) => n !== 'Cairn' && n !== FLOOR && n !== BUSY_FLOOR && rows[n]);
  const best = (op) => Math.min(...peers.map((n) => rows[n][op].total.p50));
  if (peers.length && rows.Cairn) lines.push(`| Cairn ÷ best peer (speed-up) | ${OPS.map((op) => `${(best(op) / rows.Cairn[op].total.p50).toFixed(1)}×`).join(' | ')} |`);
  lines.push(`| target (Cairn: ten times the best peer) | ${OPS.map((op) => `≤ ${TARGET[op]}`).join(' | ')} |`);
  if (rows.Cairn && rows[FLOOR]) lines.push(`| Cairn less the no-work floor | ${OPS.map((op) => fmt(rows.Cairn[op].total.p50 - rows[FLOOR][op].total.p50)).join(' | ')} |`);
  if (rows.Cairn?.[OPS[0]].server) lines.push(`| Cairn's server time (its stdin to its reply) | ${OPS.map((op) => fmt(rows.Cairn[op].server?.p50)).join(' | ')} |`);
  if (rows.Cairn && rows[BUSY_FLOOR]) lines.push(`| Cairn less the floor at its server time | ${OPS.map((op) => fmt(rows.Cairn[op].total.p50 - rows[BUSY_FLOOR][op].total.p50)).join(' | ')} |`);
  if (rows.Cairn) lines.push(`| met | ${OPS.map((op) => (rows.Cairn[op].total.p50 <= TARGET[op] ? 'yes' : '**no**')).join(' | ')} |`);
  return lines.join('\n');
}

/** Cairn's tools/list answer and one answer per operation, as the v1 client receives them, for the replay server. */
async function recordAnswers(db, calls) {
  const client = new Client({ name: 'bench-record', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--db', db, '--as', 'agent:bench'], stderr: 'ignore' }));
  try {
    const tools = await client.listTools();
    const answers = {};
    for (const make of Object.values(calls)) {
      const [name, args] = make(0);
      answers[name] = await client.callTool({ name, arguments: args });
    }
    return { tools, calls: answers };
  } finally {
    await client.close();
  }
}

export const section = {
  name: 'peers',
  async run({ dir, log }) {
    const labels = { create: 'create_task', list: 'list_tasks (limit 50)', get: 'get_task', update: 'update_task (status)', next: 'next_tasks (limit 1)' };
    const want = pinned();
    const list = tasks();
    const ids = (i) => (i % TASKS) + 1;
    const status = (i, a, b) => (Math.floor(i / TASKS) % 2 ? a : b);
    const rows = {};
    const notes = [];
    const versions = [];
    const title = (i) => `Bench task ${i}`;
    // A peer that fails (a changed tool, an error answer) is skipped with a note, never the whole section.
    const peer = async (name, fn) => {
      try {
        return await fn();
      } catch (err) {
        notes.push(`${name} skipped: ${String(err.message).split('\n')[0]}`);
        return undefined;
      }
    };

    const tmVersion = installedVersion('task-master-ai');
    if (tmVersion) {
      versions.push(`Task Master (task-master-ai) ${tmVersion}${tmVersion === want['task-master-ai'] ? '' : ` (TOOL-VERSIONS pins ${want['task-master-ai']})`}`);
      log('task master: project');
      const projectRoot = join(dir, 'taskmaster');
      taskMasterProject(projectRoot, list);
      log('task master: calls');
      rows['Task Master'] = await peer('Task Master', () =>
        roundTrips({
          kind: 'v1',
          command: process.execPath,
          args: [join(TOOLS, 'task-master-ai', 'dist', 'mcp-server.js')],
          cwd: projectRoot,
          // add_task is not among its default ("core") tools.
          env: { TASK_MASTER_TOOLS: 'all' },
          calls: {
            create: (i) => ['add_task', { projectRoot, title: title(i), description: 'Made by the benchmark', priority: 'medium' }],
            list: () => ['get_tasks', { projectRoot }],
            get: (i) => ['get_task', { projectRoot, id: String(ids(i * 7)) }],
            update: (i) => ['set_task_status', { projectRoot, id: String(ids(i)), status: status(i, 'pending', 'in-progress') }],
            next: () => ['next_task', { projectRoot }],
          },
          warmup: WARMUP,
          n: ITER,
          budgetMs: PEER_BUDGET_MS,
        }),
      );
    } else notes.push('Task Master is not installed (bash scripts/install-real-tools.sh): skipped');

    const blVersion = installedVersion('backlog.md');
    const blBin = backlogBinary();
    if (blVersion && blBin) {
      versions.push(`Backlog.md (backlog.md) ${blVersion}${blVersion === want['backlog.md'] ? '' : ` (TOOL-VERSIONS pins ${want['backlog.md']})`}`);
      log('backlog.md: project');
      const project = join(dir, 'backlog');
      backlogProject(project, blBin, list);
      log('backlog.md: calls');
      rows['Backlog.md'] = await peer('Backlog.md', () =>
        roundTrips({
          kind: 'v1',
          command: blBin,
          args: ['mcp', 'start'],
          cwd: project,
          calls: {
            create: (i) => ['task_create', { title: title(i), description: 'Made by the benchmark', priority: 'medium' }],
            list: () => ['task_list', { limit: 50 }],
            get: (i) => ['task_view', { id: `TASK-${ids(i * 7)}` }],
            update: (i) => ['task_edit', { id: `TASK-${ids(i)}`, status: status(i, 'To Do', 'In Progress') }],
            next: () => ['task_list', { status: 'To Do', ready: true, limit: 1 }],
          },
          warmup: WARMUP,
          n: ITER,
          budgetMs: PEER_BUDGET_MS,
        }),
      );
    } else notes.push('Backlog.md is not installed (bash scripts/install-real-tools.sh): skipped');

    // Cairn: the same 1,000 tasks, imported from Task Master's file into one project of a new workspace.
    log('cairn: workspace');
    const source = join(dir, 'cairn-source');
    if (!existsSync(join(source, '.taskmaster', 'tasks', 'tasks.json'))) {
      mkdirSync(join(source, '.taskmaster', 'tasks'), { recursive: true });
      writeFileSync(
        join(source, '.taskmaster', 'tasks', 'tasks.json'),
        JSON.stringify({ master: { tasks: list.map((t) => ({ ...t, details: '', testStrategy: '', dependencies: t.dependencies.map(String), subtasks: [] })) } }),
      );
    }
    const db = join(dir, 'peers.db');
    execFileSync(process.execPath, [CLI, 'import', source, '--db', db, '--project', 'BENCH'], { stdio: 'ignore', env: { ...process.env, CAIRN_CODE_CACHE: '0' } });
    log('cairn: calls');
    const cairnCalls = {
      create: (i) => ['create_task', { project: 'BENCH', title: title(i), description: 'Made by the benchmark', priority: 'medium' }],
      list: () => ['list_tasks', { project: 'BENCH', limit: 50 }],
      get: (i) => ['get_task', { id: `BENCH-${ids(i * 7)}` }],
      update: (i) => ['update_task', { id: `BENCH-${ids(i)}`, status: status(i, 'todo', 'in_progress') }],
      next: () => ['next_tasks', { project: 'BENCH', limit: 1 }],
    };
    rows.Cairn = await roundTrips({
      kind: 'v1',
      command: process.execPath,
      args: [CLI, 'mcp', '--db', db, '--as', 'agent:bench'],
      serverTiming: SERVER_TIMING,
      calls: cairnCalls,
      warmup: WARMUP,
      n: ITER,
    });

    // The floor: a server that answers each call at once with Cairn's own answer, through the same client.
    log('floor: record and replay');
    const replayFile = join(dir, 'replay.json');
    writeFileSync(replayFile, JSON.stringify(await recordAnswers(db, cairnCalls)));
    rows[FLOOR] = await roundTrips({ kind: 'v1', command: process.execPath, args: [REPLAY, replayFile], calls: cairnCalls, warmup: WARMUP, n: ITER });
    if (OPS.every((op) => rows.Cairn[op].server)) {
      const recorded = JSON.parse(readFileSync(replayFile, 'utf8'));
      recorded.busyUs = Object.fromEntries(OPS.map((op) => [cairnCalls[op](0)[0], Math.round(rows.Cairn[op].server.p50 * 1000)]));
      writeFileSync(replayFile, JSON.stringify(recorded));
      rows[BUSY_FLOOR] = await roundTrips({ kind: 'v1', command: process.execPath, args: [REPLAY, replayFile], calls: cairnCalls, warmup: WARMUP, n: ITER });
    }

    const names = ['Task Master', 'Backlog.md', 'Cairn', FLOOR, BUSY_FLOOR];
    const method =
      `The independent harness's table, rerun: each server spawned over stdio by the official v1 SDK client (@modelcontextprotocol/sdk, Client + StdioClientTransport), tools/list first as hosts do, then ${WARMUP} warm-up and ${ITER} timed sequential callTool calls per operation (a peer's operation stops after ${PEER_BUDGET_MS / 1000} s of timed calls; the notes give each count), in the order create, list, get, update, next, on a project of the same ${TASKS.toLocaleString('en')} tasks (30% done, 10% in progress, 30% with a blocker). ` +
      'Task Master: `task-master-ai` (dist/mcp-server.js, TASK_MASTER_TOOLS=all for add_task), project from `task-master init` and .taskmaster/tasks/tasks.json written directly; add_task (title and description, no model), get_tasks (its only page: every task), get_task, set_task_status, next_task. ' +
      'Backlog.md: `backlog mcp start` (the platform binary), project from `backlog init --no-git` and one backlog/tasks/*.md per task written directly; task_create, task_list (limit 50), task_view, task_edit (status), task_list (To Do, ready, limit 1). ' +
      `${FLOOR}: bench/lib/replay-server.mjs, a stdio server that answers tools/list and each tool with what \`cairn mcp\` answered (recorded once per operation), doing nothing else, through the same client and window: what any server answering those bytes costs here, the client's parsing and output-schema validation included. ` +
      `${BUSY_FLOOR}: the same server, keeping its CPU busy before each answer for Cairn's server time (bench/lib/server-timing.mjs: from a request reaching \`cairn mcp\`'s stdin to its reply being written, p50 per operation): what the client, the pipes and the wake-ups cost around a server that takes that long. ` +
      'Cairn: `cairn mcp` on a new workspace holding the same tasks in one project (cairn import of the Task Master file); create_task, list_tasks (limit 50), get_task, update_task (status), next_tasks (limit 1). ' +
      `Updates alternate two statuses. Peers' stderr is discarded; each server is closed after its calls. Speed-up = the best peer's p50 ÷ Cairn's. Versions: ${versions.join(', ') || 'no peer installed'}.` +
      `\n\n${table(rows, names)}\n\nCairn's rows (the figures bench/baseline.json keeps for this section):`;
    const major = process.versions.node.split('.')[0];
    return {
      // Node 20's table is the one the at-a-glance rows cite; another Node's run gets a block of its own beside it.
      ...(major === '20' ? { title: TITLE } : { block: `peers-node${major}`, title: `${TITLE}, Node ${major}` }),
      method,
      metrics: OPS.map((op) => ({ key: op, label: `Cairn ${labels[op]}`, ...rows.Cairn[op].total, target: { p50: TARGET[op] }, targetSize: 1000 })),
      notes: [
        ...notes,
        ...names
          .filter((n) => rows[n])
          .map((n) => `${n}: ${OPS.map((op) => `${op} p50 ${fmt(rows[n][op].total.p50)} / p99 ${fmt(rows[n][op].total.p99)} ms (${rows[n][op].total.n} calls)`).join('; ')}`),
      ],
    };
  },
};
