#!/usr/bin/env node
// Builds the MCP Bundle (.mcpb) that desktop hosts install with one click: the published package's
// files (what `npm pack` ships), its production dependencies as installed here, and mcpb/manifest.json
// with the version of package.json. Built on Node 22 or later it carries better-sqlite3 13's prebuilt
// addons and serves every platform they cover; otherwise the addon compiled here binds it to this
// platform and architecture (and, on Node 20, this Node major). Its name and manifest say which.
// Usage: npm run build && node scripts/build-mcpb.js [out-dir]   (default: dist-mcpb/)
// Prints the bundle's path and the staged manifest's path.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(root, 'dist-mcpb'));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first');

const major = Number(process.versions.node.split('.')[0]);
const stage = mkdtempSync(join(tmpdir(), 'cairn-mcpb-'));
const server = join(stage, 'server');

// The package's own files, exactly as npm would publish them.
const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
for (const f of packed.files) {
  mkdirSync(dirname(join(server, f.path)), { recursive: true });
  cpSync(join(root, f.path), join(server, f.path));
}

// Production dependencies, each package without its nested node_modules (those are listed themselves).
// On Node 22 and later Cairn loads better-sqlite3 13 (Node-API, installed as better-sqlite3-napi),
// whose addon any later Node loads too; Node 20 loads 12, built for that Node's ABI alone. Both keep
// their JavaScript and addons, not the sources they were built from.
const NATIVE = ['node_modules/better-sqlite3', 'node_modules/better-sqlite3-napi'];
const SKIP = new Map(NATIVE.map((dep) => [dep, new Set(['deps', 'src', 'build'])]));
const deps = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .map((p) => relative(root, p))
  .filter((p) => p.startsWith('node_modules'));
for (const dep of deps) {
  const skip = SKIP.get(dep) ?? new Set();
  for (const entry of readdirSync(join(root, dep))) {
    if (entry === 'node_modules' || skip.has(entry)) continue;
    cpSync(join(root, dep, entry), join(server, dep, entry), { recursive: true });
  }
}
for (const dep of NATIVE) {
  const addon = `${dep}/build/Release/better_sqlite3.node`;
  if (!deps.includes(dep) || !existsSync(join(root, addon))) continue;
  mkdirSync(dirname(join(server, addon)), { recursive: true });
  cpSync(join(root, addon), join(server, addon));
}

// 13 ships prebuilt addons for each platform it supports (prebuilds/<platform>-<arch>.node); with
// them, and no other native module, one bundle serves every one of those platforms.
const napiDir = join(server, 'node_modules/better-sqlite3-napi');
const prebuilt = existsSync(join(napiDir, 'prebuilds')) ? readdirSync(join(napiDir, 'prebuilds')).filter((f) => f.endsWith('.node')) : [];
const napi = prebuilt.length > 0 || existsSync(join(napiDir, 'build/Release/better_sqlite3.node'));
const platforms = prebuilt.length > 0 ? [...new Set(prebuilt.map((f) => f.split('-')[0].replace('linuxmusl', 'linux')))].sort() : [process.platform];

const manifest = JSON.parse(readFileSync(join(root, 'mcpb', 'manifest.json'), 'utf8'));
manifest.version = pkg.version;
const runtime = napi ? '>=22.0.0' : `>=${major}.0.0 <${major + 1}.0.0`;
manifest.compatibility = { ...manifest.compatibility, platforms, runtimes: { node: runtime } };
writeFileSync(join(stage, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
for (const f of ['README.md', 'LICENSE']) cpSync(join(root, f), join(stage, f));

mkdirSync(out, { recursive: true });
const target = prebuilt.length > 0 ? '' : `-${process.platform}-${process.arch}${napi ? '' : `-node${major}`}`;
const bundle = join(out, `cairn-${pkg.version}${target}.mcpb`);
rmSync(bundle, { force: true });
const mcpb = join(root, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');
execFileSync(process.execPath, [mcpb, 'pack', stage, bundle], { stdio: ['ignore', 'ignore', 'inherit'] });
process.stdout.write(`${bundle}\n${join(stage, 'manifest.json')}\n`);
