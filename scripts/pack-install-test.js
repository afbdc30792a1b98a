// The package as users get it: `npm pack`, install the tarball into an empty project, run `npx cairn` there.
// Run after `npm run build` (CI runs it after `npm test`, on each Node version): node scripts/pack-install-test.js
// Checks the tarball (a LICENSE, no source maps, no sources), then --version, init, add and list through npx,
// and the library entry points by their package names. Needs the npm registry (dependencies are installed).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const work = mkdtempSync(join(tmpdir(), 'cairn-pack-'));
// Nothing from the caller's environment steers the installed cairn.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CAIRN_') && k !== 'FORCE_COLOR'));
env.NO_COLOR = '1';
env.npm_config_audit = 'false';
env.npm_config_fund = 'false';
env.npm_config_update_notifier = 'false';

function run(cmd, args, cwd) {
  try {
    return execFileSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) failed with ${err.status}:\n${err.stdout}\n${err.stderr}`);
  }
}
function check(ok, what) {
  if (!ok) throw new Error(`pack-install-test: ${what}`);
  console.log(`ok - ${what}`);
}

try {
  const [packed] = JSON.parse(run(npm, ['pack', '--json', '--pack-destination', work], root));
  const files = packed.files.map((f) => f.path);
  check(packed.name === pkg.name, `tarball is ${pkg.name}@${pkg.version}`);
  check(files.includes('LICENSE') && files.includes('README.md') && files.includes('bin/cairn.js'), 'tarball holds LICENSE, README.md and bin/cairn.js');
  check(!files.some((f) => f.endsWith('.map')), 'tarball holds no source maps');
  check(!files.some((f) => f.startsWith('src/') || f.startsWith('test/')), 'tarball holds no sources or tests');
  // A guard against shipping something by mistake (a build folder, fixtures), not a budget to trim to:
  // about 6 MB today, most of it the CLI's and `cairn mcp`'s bundles (each holds what its start-up
  // needs, so each starts from one file through its code cache), the MCP Apps view and the library's
  // type declarations.
  check(packed.unpackedSize < 8_000_000, `unpacked size ${(packed.unpackedSize / 1e6).toFixed(1)} MB is under 8 MB`);

  const project = join(work, 'project');
  run('mkdir', ['-p', project], work);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'cairn-pack-test', version: '1.0.0', private: true, type: 'module' }));
  const started = Date.now();
  run(npm, ['install', '--no-audit', '--no-fund', '--no-package-lock', join(work, packed.filename)], project);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  // A user gets what runs: no test, build or benchmark tool comes along (issue 37: a clone's install is ~400 MB).
  const installed = readdirSync(join(project, 'node_modules'))
    .flatMap((d) => (d.startsWith('@') ? readdirSync(join(project, 'node_modules', d)).map((s) => `${d}/${s}`) : [d]))
    .filter((d) => !d.startsWith('.'));
  const devOnly = Object.keys(pkg.devDependencies ?? {}).filter((d) => installed.includes(d));
  check(devOnly.length === 0, `no development dependency is installed (found: ${devOnly.join(', ') || 'none'})`);
  const megabytes = Number(run('du', ['-sk', join(project, 'node_modules')], work).split(/\s/)[0]) / 1024;
  console.log(`pack-install-test: npm install of the tarball took ${seconds} s; ${installed.length} packages, ${megabytes.toFixed(0)} MB in node_modules`);

  const version = run(npx, ['--no-install', 'cairn', '--version'], project).trim();
  check(version === pkg.version, `npx cairn --version prints ${pkg.version}`);
  const init = JSON.parse(run(npx, ['--no-install', 'cairn', 'init', '--key', 'PKG', '--name', 'Packed', '--json'], project));
  check(init.created === true && init.project?.key === 'PKG', 'npx cairn init creates the workspace and project PKG');
  const added = JSON.parse(run(npx, ['--no-install', 'cairn', 'add', 'First task', '--priority', 'high', '--json'], project));
  check(added.task?.id === 'PKG-1', 'npx cairn add creates PKG-1');
  const listed = run(npx, ['--no-install', 'cairn', 'list'], project);
  check(/PKG-1\s+todo\s+high\s+First task/.test(listed), 'npx cairn list shows PKG-1');
  const lib = run(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `
    const { openCairn } = await import('${pkg.name}');
    const { createTools } = await import('${pkg.name}/agent');
    const cairn = openCairn({ db: '.cairn/cairn.db', actor: 'agent:pack' });
    const { tasks } = await cairn.call('next_tasks', { project: 'PKG' });
    await cairn.close();
    console.log(tasks.map((t) => t.id).join(','), typeof createTools);`,
    ],
    project,
  ).trim();
  check(lib === 'PKG-1 function', `import '${pkg.name}' and '${pkg.name}/agent' work`);
  console.log(`pack-install-test: ${pkg.name}@${pkg.version} installs and runs on Node ${process.version}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
