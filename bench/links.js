// Links section: what serving another program's store in place costs, through the official
// SDK client and the entry point hosts start (`cairn mcp --profile …` over stdio), at 1,000 tasks.
// - A read when nothing changed: the profile over a linked source (a DevPlanner workspace of 1,000
//   cards; Castle's castle.db of 1,000 rows) against the same profile over a native workspace holding
//   the same tasks (imported). Target: linked p50 ≤ 1.5 × native p50.
// - Picking up a change: before each timed call one card file (or one Castle row, saved as Castle's
//   app saves: the whole file) is changed untimed; the call that returns it is timed. Target p50 ≤ 50 ms.
// Runs at the 1k size only (the sources are made here, not taken from the cached workspaces).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Database } from '../dist/store/sqlite/native.js';
import { rng } from './lib/random.js';
import { measure } from './lib/stats.js';
import { NOUNS, VERBS } from './lib/words.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = join(ROOT, 'dist', 'mcp', 'stdio-entry.js');
const CARDS = 1000;
const LANES = ['01-upcoming', '02-in-progress', '03-complete', '04-archive'];
const ROUNDS = 5;
const ITER = 150;
const WARMUP = 50;

/** A DevPlanner workspace of one project and 1,000 cards (each with front matter, text and three tasks). */
function devplannerWorkspace(dir) {
  const r = rng(29);
  const project = join(dir, 'media-manager');
  const lanes = Object.fromEntries(LANES.map((l, i) => [l, { displayName: l.slice(3), color: ['#3b82f6', '#f59e0b', '#10b981', '#6b7280'][i], collapsed: i > 1 }]));
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(project, '_project.json'),
    JSON.stringify(
      { name: 'Media Manager', description: 'Bench', created: '2026-01-01T00:00:00Z', updated: '2026-01-01T00:00:00Z', archived: false, lanes, prefix: 'MM', nextCardNumber: CARDS + 1 },
      null,
      2,
    ),
  );
  const order = Object.fromEntries(LANES.map((l) => [l, []]));
  for (let i = 1; i <= CARDS; i++) {
    const lane = LANES[i % 10 === 0 ? 2 : i % 7 === 0 ? 1 : 0];
    const slug = `card-${i}`;
    mkdirSync(join(project, lane), { recursive: true });
    const title = `${r.pick(VERBS)} ${r.pick(NOUNS)} ${i}`;
    writeFileSync(
      join(project, lane, `${slug}.md`),
      `---\ntitle: ${title}\npriority: ${r.pick(['low', 'medium', 'high'])}\ncreated: '2026-01-01T00:00:00Z'\nupdated: '2026-01-01T00:00:00Z'\ncardNumber: ${i}\nversion: 1\n---\n## Overview\n\nCard ${i}: ${r.pick(NOUNS)} and ${r.pick(NOUNS)}.\n\n## Tasks\n- [x] first\n- [ ] second\n- [ ] third\n`,
    );
    order[lane].push(`${slug}.md`);
  }
  for (const l of LANES) {
    mkdirSync(join(project, l), { recursive: true });
    writeFileSync(join(project, l, '_order.json'), JSON.stringify(order[l], null, 2));
  }
  return project;
}

/** Castle's castle.db with 1,000 tasks of one project path. */
function castleDatabase(file) {
  const r = rng(30);
  const db = new Database(file);
  db.exec(readFileSync(join(ROOT, 'test', 'fixtures', 'import', 'castle', 'make-castle-db.sql'), 'utf8').split('INSERT INTO tasks VALUES')[0]);
  const insert = db.prepare("INSERT INTO tasks (id, title, description, state, kind, project_path, created_at, updated_at) VALUES (?, ?, ?, ?, ?, '/home/dev/castle', '2026-01-01 00:00:00', ?)");
  db.transaction(() => {
    for (let i = 1; i <= CARDS; i++)
      insert.run(
        `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        `${r.pick(VERBS)} ${r.pick(NOUNS)} ${i}`,
        `Task ${i}`,
        r.pick(['new', 'in_progress', 'active', 'review', 'done']),
        r.pick(['feature', 'bug', 'chore', 'spike']),
        `2026-01-01 00:${String(i % 60).padStart(2, '0')}:00`,
      );
  })();
  db.close();
}

async function connect(args, env) {
  const c = new Client({ name: 'bench', version: '1' });
  await c.connect(new StdioClientTransport({ command: process.execPath, args: [ENTRY, ...args], env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stderr: 'ignore' }));
  return c;
}

/** Linked and native alike, in alternating rounds (the machine's drift falls on both); the median round of each. */
async function pair(linked, native) {
  const a = [];
  const b = [];
  for (let round = 0; round < ROUNDS; round++) {
    b.push(await measure(native, { warmup: WARMUP, iterations: ITER, budgetMs: 4000 }));
    a.push(await measure(linked, { warmup: WARMUP, iterations: ITER, budgetMs: 4000 }));
  }
  const med = (xs, k) => xs.map((x) => x[k]).sort((p, q) => p - q)[(ROUNDS - 1) / 2];
  return [
    { p50: med(a, 'p50'), p99: med(a, 'p99'), cpuP50: med(a, 'cpuP50'), n: a.reduce((s, x) => s + x.n, 0) },
    { p50: med(b, 'p50'), p99: med(b, 'p99'), cpuP50: med(b, 'cpuP50'), n: b.reduce((s, x) => s + x.n, 0) },
  ];
}

export const section = {
  name: 'links',
  async run({ dir, log }) {
    const cairn = (args) => execFileSync(process.execPath, [join(ROOT, 'bin', 'cairn.js'), ...args], { encoding: 'utf8', env: { ...process.env, CAIRN_CODE_CACHE: '0' } });
    const metrics = [];
    const call = (c, name, args) => c.callTool({ name, arguments: args });

    log('devplanner workspace');
    const ws = join(dir, 'planner');
    const project = devplannerWorkspace(ws);
    const native = join(dir, 'native-dp.db');
    cairn(['import', ws, '--db', native]);
    const linkedDp = await connect(['--profile', 'devplanner'], { DEVPLANNER_WORKSPACE: ws });
    const nativeDp = await connect(['--profile', 'devplanner', '--db', native], {});
    const card = (i) => `card-${(i % CARDS) + 1}`;
    for (const [key, label, args] of [
      ['getCard', 'get_card', (i) => ({ projectSlug: 'media-manager', cardSlug: card(i * 7) })],
      ['listCards', 'list_cards (lane 02-in-progress, priority high)', () => ({ projectSlug: 'media-manager', lane: '02-in-progress', priority: 'high' })],
      ['overview', 'get_board_overview', () => ({ projectSlug: 'media-manager' })],
    ]) {
      log(key);
      const name = label.split(' ')[0];
      const [l, n] = await pair(
        (i) => call(linkedDp, name, args(i)),
        (i) => call(nativeDp, name, args(i)),
      );
      metrics.push({ key: `${key}Native`, label: `devplanner ${label}, native workspace`, ...n });
      metrics.push({ key, label: `devplanner ${label}, linked workspace (${(l.p50 / n.p50).toFixed(2)}× native)`, ...l, target: { p50: Math.round(n.p50 * 1.5 * 1000) / 1000 } });
    }
    log('devplanner pickup');
    let edited = 0;
    const laneOf = (n) => (n % 10 === 0 ? LANES[2] : n % 7 === 0 ? LANES[1] : LANES[0]);
    const pickup = await measure(() => call(linkedDp, 'get_card', { projectSlug: 'media-manager', cardSlug: `card-${edited}` }), {
      warmup: 5,
      iterations: 60,
      budgetMs: 10_000,
      setup: (i) => {
        edited = (i % CARDS) + 1;
        const f = join(project, laneOf(edited), `card-${edited}.md`);
        writeFileSync(f, readFileSync(f, 'utf8').replace(/^title: .*$/m, `title: Edited ${i}`));
      },
    });
    const check = await call(linkedDp, 'get_card', { projectSlug: 'media-manager', cardSlug: `card-${edited}` });
    if (!check.content[0].text.includes('Edited')) throw new Error('the edited card was not picked up');
    metrics.push({ key: 'dpPickup', label: 'devplanner get_card after its file changed (one card of 1,000)', ...pickup, target: { p50: 50 } });
    await Promise.all([linkedDp.close(), nativeDp.close()]);

    log('castle database');
    const castle = join(dir, 'castle', 'castle.db');
    mkdirSync(dirname(castle), { recursive: true });
    castleDatabase(castle);
    const nativeCastle = join(dir, 'native-castle.db');
    cairn(['import', castle, '--db', nativeCastle]);
    const env = { CASTLE_PROJECT_PATH: '/home/dev/castle' };
    const linkedC = await connect(['--profile', 'castle'], { ...env, CASTLE_DB_PATH: castle });
    const nativeC = await connect(['--profile', 'castle', '--db', nativeCastle], env);
    const uuid = (i) => `00000000-0000-4000-8000-${String((i % CARDS) + 1).padStart(12, '0')}`;
    const ids = JSON.parse(cairn(['list', '--project', 'CASTLE', '--include-done', '--limit', '200', '--json', '--db', nativeCastle])).tasks.map((t) => t.id);
    for (const [key, label, linkedArgs, nativeArgs] of [
      ['castleGet', 'castle_get_task', (i) => ({ taskId: uuid(i) }), (i) => ({ taskId: ids[i % ids.length] })],
      ['castleList', 'castle_list_tasks', () => ({}), () => ({})],
    ]) {
      log(key);
      const [l, n] = await pair(
        (i) => call(linkedC, label, linkedArgs(i)),
        (i) => call(nativeC, label, nativeArgs(i)),
      );
      metrics.push({ key: `${key}Native`, label: `castle ${label}, native workspace`, ...n });
      metrics.push({ key, label: `castle ${label}, linked castle.db (${(l.p50 / n.p50).toFixed(2)}× native)`, ...l, target: { p50: Math.round(n.p50 * 1.5 * 1000) / 1000 } });
    }
    log('castle pickup');
    const app = new Database(readFileSync(castle));
    let row = 0;
    const castlePickup = await measure(() => call(linkedC, 'castle_get_task', { taskId: uuid(row) }), {
      warmup: 3,
      iterations: 40,
      budgetMs: 10_000,
      setup: (i) => {
        row = i;
        app.prepare('UPDATE tasks SET title = ? WHERE id = ?').run(`Saved by the app ${i}`, uuid(i));
        writeFileSync(castle, app.serialize());
      },
    });
    app.close();
    const checked = await call(linkedC, 'castle_get_task', { taskId: uuid(row) });
    if (!checked.content[0].text.includes('Saved by the app')) throw new Error('the saved row was not picked up');
    metrics.push({ key: 'castlePickup', label: "castle_get_task after Castle's app saved the file (one row of 1,000 changed)", ...castlePickup, target: { p50: 50 } });
    await Promise.all([linkedC.close(), nativeC.close()]);
    return {
      title: 'Linked sources (MCP over stdio)',
      method:
        'The official SDK client (@modelcontextprotocol/sdk, Client + StdioClientTransport) against `cairn mcp --profile devplanner` with DEVPLANNER_WORKSPACE naming a DevPlanner workspace of 1,000 cards, and `--profile castle` with CASTLE_DB_PATH naming a castle.db of 1,000 rows; beside each, the same profile over a native workspace holding the same tasks (cairn import). ' +
        "Reads run in five alternating rounds (50 warm-up + up to 150 timed calls each); the table shows the median round. Pickup: before each timed call one card file is edited in place (or one row changed and the whole castle.db written, as Castle's app saves), untimed; the call that returns the change is timed.",
      metrics,
      notes: ['target for each linked read: 1.5 × the native p50 beside it; pickup: p50 ≤ 50 ms'],
    };
  },
};
