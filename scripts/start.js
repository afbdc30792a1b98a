#!/usr/bin/env node
// `npm start`: build if needed, create a demo workspace if there is none, then show it.
// The last step, `present(db)`, prints the board and runs `cairn serve` on the demo workspace.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'cairn.js');
/** The demo workspace; override with CAIRN_DEMO_DB. Ignored by git (*.db). */
const demoDb = process.env.CAIRN_DEMO_DB ?? join(root, '.cairn-demo', 'cairn.db');

function ensureBuild() {
  if (existsSync(join(root, 'dist', 'cli', 'main.js'))) return;
  console.log('Building Cairn (npm run build)…');
  const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** A sample project: a small dependency chain, a checklist, a comment and a claimed task. */
async function seedDemo(db) {
  const { openCairn } = await import('../dist/index.js');
  const cairn = openCairn({ db, actor: 'demo' });
  try {
    await cairn.call('create_project', { key: 'DEMO', name: 'Demo project', description: 'Created by npm start', root });
    const add = async (title, extra = {}) => (await cairn.call('create_task', { project: 'DEMO', title, ...extra })).task.id;
    const schema = await add('Design the database schema', { priority: 'high', labels: ['db'], checklist: ['tables', 'indexes', 'migrations'] });
    const api = await add('Implement the REST endpoints', { priority: 'medium', labels: ['api'], blockedBy: [schema] });
    await add('Write the API docs', { kind: 'chore', labels: ['docs'], blockedBy: [api] });
    await add('Set up CI', { priority: 'high', labels: ['infra'] });
    const login = await add('Fix login redirect loop', { kind: 'bug', priority: 'urgent', labels: ['auth'] });
    await cairn.call('update_checklist', { id: schema, ops: [{ op: 'check', index: 0 }] });
    await cairn.call('claim_task', { id: schema });
    await cairn.call('add_comment', { id: login, body: 'Happens only when the session cookie has expired.', kind: 'research' });
  } finally {
    await cairn.close();
  }
}

function cairn(args, db) {
  const r = spawnSync(process.execPath, [bin, '--db', db, ...args], { stdio: 'inherit' });
  return r.status ?? 1;
}

/** What npm start ends with: the board once, then `cairn serve` on the demo workspace until Ctrl-C. */
function present(db) {
  cairn(['board'], db);
  const port = process.env.PORT ?? '7420';
  const url = `http://127.0.0.1:${port}`;
  console.log(
    [
      '',
      `Board: ${url}/   (open it in a browser)`,
      `MCP:   ${url}/mcp   REST: ${url}/api/v1   events: ${url}/api/v1/events`,
      `Demo workspace: ${db}`,
      `Try: node bin/cairn.js --db ${db} ready   (or export CAIRN_DB=${db}); Ctrl-C stops the server`,
      '',
    ].join('\n'),
  );
  return serve(['serve', '--port', port], db);
}

/**
 * The server runs as a child that outlives nothing: a SIGTERM or SIGHUP sent to `npm start` (a
 * supervisor, a closed terminal, a test) is passed on to it, where a blocking spawnSync would die
 * and leave the server running without its parent. Ctrl-C reaches both already.
 */
function serve(args, db) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, '--db', db, ...args], { stdio: 'inherit' });
    const forward = (signal) => () => child.kill(signal);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward(signal));
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

ensureBuild();
if (!existsSync(demoDb)) {
  await seedDemo(demoDb);
  console.log(`Created a demo workspace at ${demoDb}\n`);
}
process.exitCode = await present(demoDb);
