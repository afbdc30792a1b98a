/**
 * Host setup through the built CLI: `cairn mcp-config --client …` prints each host's configuration,
 * and `cairn init --agent …` merges the server entry into the host's project config file.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliHarness, okJson, type CliHarness } from './cli-harness.js';

const bin = realpathSync(BIN);
/** What a committed file runs when cairn-tasks is not on PATH (the harness's PATH has no global install). */
const NPX = { command: 'npx', args: ['-y', 'cairn-tasks', 'mcp'] };
const FOLDER_DB = '${workspaceFolder}/.cairn/cairn.db';

describe('cairn mcp-config', () => {
  let h: CliHarness;
  let repo: string;
  beforeAll(() => {
    h = cliHarness({ useEnvDb: false });
    repo = join(h.dir, 'repo');
    mkdirSync(repo);
    expect(h.run(['init'], { cwd: repo }).code).toBe(0);
  });
  afterAll(() => h.cleanup());

  it('prints portable entries for the hosts whose file a team commits, and absolute paths for claude-desktop, acp and --absolute', () => {
    const [claudeCode, desktop, vscode, cursor, acp, pinned] = h.runMany([
      ['mcp-config', '--client', 'claude-code', '--json'],
      ['mcp-config', '--client', 'claude-desktop'],
      ['mcp-config', '--client', 'vscode'],
      ['mcp-config', '--client', 'cursor'],
      ['mcp-config', '--client', 'acp'],
      ['mcp-config', '--client', 'claude-code', '--absolute', '--json'],
    ]);
    const plain = { command: process.execPath, args: [bin, 'mcp'] };
    const inFolder = { command: 'npx', args: [...NPX.args, '--db', FOLDER_DB] };
    expect(okJson(claudeCode!, 'claude-code')).toEqual({ mcpServers: { cairn: NPX } });
    expect(okJson(desktop!, 'claude-desktop')).toEqual({ mcpServers: { cairn: plain } });
    expect(okJson(vscode!, 'vscode')).toEqual({ servers: { cairn: { type: 'stdio', ...inFolder } } });
    expect(okJson(cursor!, 'cursor')).toEqual({ mcpServers: { cairn: inFolder } });
    expect(okJson(acp!, 'acp')).toEqual({ name: 'cairn', ...plain, env: [] });
    expect(okJson(pinned!, 'claude-code --absolute')).toEqual({ mcpServers: { cairn: plain } });
    expect(vscode!.stderr).toContain('runs it with npx');
  });

  it("names cairn itself when this package's cairn is on PATH, and not npm's unrelated cairn", () => {
    const ours = join(h.dir, 'ours');
    const theirs = join(h.dir, 'theirs');
    mkdirSync(ours);
    mkdirSync(join(theirs, 'pkg', 'bin'), { recursive: true });
    symlinkSync(BIN, join(ours, 'cairn'));
    writeFileSync(join(theirs, 'pkg', 'package.json'), JSON.stringify({ name: 'cairn' }));
    writeFileSync(join(theirs, 'pkg', 'bin', 'cairn.js'), '');
    symlinkSync(join(theirs, 'pkg', 'bin', 'cairn.js'), join(theirs, 'cairn'));
    const withPath = (dir: string) => h.run(['mcp-config', '--client', 'claude-code', '--json'], { env: { PATH: `${dir}${delimiter}${process.env.PATH}` } });
    expect(okJson(withPath(ours)).mcpServers.cairn).toEqual({ command: 'cairn', args: ['mcp'] });
    expect(okJson(withPath(theirs)).mcpServers.cairn).toEqual(NPX);
  });

  it('claude-code without --json prints the .mcp.json JSON and the `claude mcp add` line, with nothing of this machine in either', () => {
    const r = h.run(['mcp-config', '--client', 'claude-code', '--project', 'repo']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('.mcp.json');
    const json = r.stdout.slice(r.stdout.indexOf('{'), r.stdout.lastIndexOf('}') + 1);
    expect(JSON.parse(json).mcpServers.cairn).toEqual(NPX);
    expect(r.stdout).toMatch(/^claude mcp add cairn -- npx -y cairn-tasks mcp$/m);
    expect(r.stdout).not.toContain(h.dir);
  });

  it('--absolute --project gives an absolute --db (the real path); --profile is passed through either way', () => {
    const out = okJson(h.run(['mcp-config', '--client', 'cursor', '--project', 'repo/../repo', '--profile', 'tx', '--absolute']));
    const db = join(realpathSync(repo), '.cairn', 'cairn.db');
    expect(out.mcpServers.tx.args).toEqual([bin, 'mcp', '--profile', 'tx', '--db', db]); // listed under the name tx's hosts know
    expect(existsSync(db)).toBe(true);
    const portable = okJson(h.run(['mcp-config', '--client', 'cursor', '--project', 'repo', '--profile', 'tx']));
    expect(portable.mcpServers.tx.args).toEqual([...NPX.args, '--profile', 'tx', '--db', FOLDER_DB]);
  });

  it('acp carries the database in env, as an array of {name, value} named for the profile', () => {
    const root = realpathSync(repo);
    const db = join(root, '.cairn', 'cairn.db');
    const [castle, tx, devplanner, ade, native] = h.runMany(
      [['--profile', 'castle'], ['--profile', 'tx'], ['--profile', 'devplanner'], ['--profile', 'ade'], []].map((p) => ['mcp-config', '--client', 'acp', '--project', 'repo', ...p, '--json']),
    );
    const entry = okJson(castle!, 'castle');
    expect(entry).toEqual({
      name: 'castle-tasks',
      command: process.execPath,
      args: [bin, 'mcp', '--profile', 'castle'],
      env: [
        { name: 'CASTLE_DB_PATH', value: db },
        { name: 'CASTLE_PROJECT_PATH', value: root },
      ],
    });
    expect(Array.isArray(entry.env)).toBe(true);
    expect(okJson(tx!).env).toEqual([{ name: 'TX_DB', value: db }]);
    expect(okJson(devplanner!).env).toEqual([{ name: 'DEVPLANNER_WORKSPACE', value: db }]);
    expect(okJson(ade!).env).toEqual([{ name: 'CAIRN_DB', value: db }]);
    expect(okJson(native!)).toEqual({ name: 'cairn', command: process.execPath, args: [bin, 'mcp'], env: [{ name: 'CAIRN_DB', value: db }] });
  });

  it('an unknown client or profile, a missing --client or a missing --project folder is VALIDATION_ERROR, exit 1', () => {
    const bad = h.run(['mcp-config', '--client', 'emacs']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('VALIDATION_ERROR');
    expect(bad.stderr).toContain('claude-code, claude-desktop, vscode, cursor, acp');
    expect(bad.stdout).toBe('');
    const cases = h.runMany([
      ['mcp-config', '--client', 'emacs', '--json'],
      ['mcp-config', '--client', 'vscode', '--profile', 'nope', '--json'],
      ['mcp-config', '--json'],
      ['mcp-config', '--client', 'vscode', '--project', 'no-such-dir', '--json'],
    ]);
    for (const r of cases) {
      expect(r.code).toBe(1);
      expect(r.json().error.code).toBe('VALIDATION_ERROR');
    }
    expect(cases[0]!.json().error.details.valid).toEqual(['claude-code', 'claude-desktop', 'vscode', 'cursor', 'acp']);
    expect(cases[1]!.json().error.details.valid).toEqual(['castle', 'tx', 'devplanner', 'ade']);
  });
});

describe('cairn init --agent', () => {
  let h: CliHarness;
  let n = 0;
  /** A fresh folder under the harness dir to run init in. */
  const folder = (): string => {
    const dir = join(h.dir, `repo${++n}`);
    mkdirSync(dir);
    return dir;
  };
  beforeAll(() => {
    h = cliHarness({ useEnvDb: false });
  });
  afterAll(() => h.cleanup());

  it('writes .mcp.json on a fresh init; a second run is a no-op that leaves the file byte-identical', () => {
    const dir = folder();
    const first = h.run(['init', '--agent', 'claude-code'], { cwd: dir });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Initialized');
    const file = join(dir, '.mcp.json');
    const bytes = readFileSync(file);
    expect(JSON.parse(bytes.toString())).toEqual({ mcpServers: { cairn: NPX } });
    const again = h.run(['init', '--agent', 'claude-code'], { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already exists');
    expect(again.stdout).toContain('already configured');
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(okJson(h.run(['init', '--agent', 'claude-code', '--json'], { cwd: dir })).agent).toEqual({
      host: 'claude-code',
      file,
      status: 'unchanged',
      name: 'cairn',
      command: 'npx -y cairn-tasks mcp',
    });
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('adds to an existing workspace, keeping the other servers and top-level keys (vscode, with --profile)', () => {
    const dir = folder();
    expect(h.run(['init', '--key', 'API'], { cwd: dir }).code).toBe(0);
    mkdirSync(join(dir, '.vscode'));
    const file = join(dir, '.vscode', 'mcp.json');
    const other = { type: 'stdio', command: 'other-server', args: ['--flag'] };
    writeFileSync(file, JSON.stringify({ inputs: [{ id: 'token', type: 'promptString' }], servers: { other } }, null, 4));
    const out = okJson(h.run(['init', '--agent', 'vscode', '--profile', 'castle', '--json'], { cwd: dir }));
    expect(out).toMatchObject({ created: false, project: { key: 'API' }, projectHere: true, agent: { host: 'vscode', file, status: 'added' } });
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(doc.inputs).toEqual([{ id: 'token', type: 'promptString' }]);
    expect(doc.servers.other).toEqual(other);
    expect(doc.servers['castle-tasks']).toEqual({ type: 'stdio', command: 'npx', args: [...NPX.args, '--profile', 'castle', '--db', FOLDER_DB] });
    expect(readFileSync(file, 'utf8')).toMatch(/^ {4}"inputs"/m); // the file's own indentation is kept
    const bytes = readFileSync(file);
    expect(h.run(['init', '--agent', 'vscode', '--profile', 'castle'], { cwd: dir }).stdout).toContain(
      'vscode already configured: .vscode/mcp.json ("castle-tasks": npx -y cairn-tasks mcp --profile castle',
    );
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('replaces a stale cairn entry (e.g. after moving Cairn) and keeps the rest', () => {
    const dir = folder();
    const file = join(dir, '.mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { cairn: { command: '/old/node', args: ['/old/cairn.js', 'mcp'] }, other: { command: 'x' } } }));
    expect(okJson(h.run(['init', '--agent', 'claude-code', '--json'], { cwd: dir })).agent.status).toBe('updated');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(doc.mcpServers.other).toEqual({ command: 'x' });
    expect(doc.mcpServers.cairn).toEqual(NPX);
  });

  it('creates the .cursor folder when needed', () => {
    const dir = folder();
    expect(okJson(h.run(['init', '--agent', 'cursor', '--json'], { cwd: dir })).agent.status).toBe('created');
    expect(JSON.parse(readFileSync(join(dir, '.cursor', 'mcp.json'), 'utf8')).mcpServers.cairn).toEqual({ command: 'npx', args: [...NPX.args, '--db', FOLDER_DB] });
  });

  it("--absolute pins node, bin/cairn.js and the database for a host started without the shell's PATH", () => {
    const dir = folder();
    okJson(h.run(['init', '--agent', 'claude-code', '--absolute', '--json'], { cwd: dir }));
    const db = join(realpathSync(dir), '.cairn', 'cairn.db');
    expect(JSON.parse(readFileSync(join(dir, '.mcp.json'), 'utf8')).mcpServers.cairn).toEqual({ command: process.execPath, args: [bin, 'mcp', '--db', db] });
  });

  it("edits .vscode/mcp.json as JSONC: comments, trailing commas and the file's own layout are kept", () => {
    const dir = folder();
    mkdirSync(join(dir, '.vscode'));
    const file = join(dir, '.vscode', 'mcp.json');
    const text = '{\n\t// Servers for this repo\n\t"servers": {\n\t\t"other": { "command": "x" }, // keep me\n\t},\n}\n';
    writeFileSync(file, text);
    expect(okJson(h.run(['init', '--agent', 'vscode', '--json'], { cwd: dir })).agent.status).toBe('added');
    const after = readFileSync(file, 'utf8');
    expect(after).toContain('\t// Servers for this repo\n');
    expect(after).toContain('"other": { "command": "x" }, // keep me');
    expect(after).toMatch(/^\t\t"cairn": \{$/m);
    expect(after.endsWith('\t\t"other": { "command": "x" }, // keep me\n\t},\n}\n')).toBe(true);
  });

  it('refuses an existing file that is not valid JSON, leaving it (and the workspace) untouched', () => {
    const dir = folder();
    const file = join(dir, '.mcp.json');
    const text = '{ "mcpServers": { "x": {} \n';
    writeFileSync(file, text);
    const r = h.run(['init', '--agent', 'claude-code', '--json'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('VALIDATION_ERROR');
    expect(r.json().error.message).toContain('not valid JSON');
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(existsSync(join(dir, '.cairn'))).toBe(false);
  });

  it('refuses unknown hosts and hosts without a project file with exit 1', () => {
    const dir = folder();
    for (const host of ['emacs', 'claude-desktop', 'acp']) {
      const r = h.run(['init', '--agent', host, '--json'], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.json().error.code).toBe('VALIDATION_ERROR');
      expect(r.json().error.message).toContain('claude-code, vscode, cursor');
    }
    expect(existsSync(join(dir, '.cairn'))).toBe(false);
  });
});
