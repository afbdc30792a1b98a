/** Output conventions through the built bin: colour only when allowed, --help everywhere with examples, version. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINDINGS } from '../../src/cli/bindings.js';
import { BIN, cliHarness, type CliHarness } from './cli-harness.js';

const ESC = '\u001b[';
/** util-linux `script` runs a command on a pseudo-terminal: the one way to see what a person at a terminal sees. */
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

describe('cairn CLI output', () => {
  let h: CliHarness;
  beforeAll(() => {
    h = cliHarness();
    h.ok(['init', '--key', 'API']);
    h.ok(['add', 'Colourful', '--priority', 'urgent']);
  });
  afterAll(() => h.cleanup());

  it('has no escape codes with NO_COLOR or when stdout is not a TTY; FORCE_COLOR turns them on unless NO_COLOR', async () => {
    const [noColor, pipe, forced, both, err] = await Promise.all([
      h.runAsync(['list']),
      h.runAsync(['list'], { env: { NO_COLOR: undefined } }),
      h.runAsync(['list'], { env: { NO_COLOR: undefined, FORCE_COLOR: '1' } }),
      h.runAsync(['show', 'API-1'], { env: { NO_COLOR: '1', FORCE_COLOR: '1' } }),
      h.runAsync(['show', 'API-9'], { env: { NO_COLOR: undefined } }),
    ]);
    for (const r of [noColor, pipe, both, err]) expect(r.stdout + r.stderr).not.toContain(ESC);
    expect(noColor.stdout).toMatch(/API-1 +todo +urgent +Colourful/);
    expect(forced.stdout).toContain(ESC);
    expect(forced.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toBe(noColor.stdout);
  });

  it('--json output is the same with and without colour settings', async () => {
    const [plain, forced] = await Promise.all([h.runAsync(['show', 'API-1', '--json']), h.runAsync(['show', 'API-1', '--json'], { env: { FORCE_COLOR: '1', NO_COLOR: undefined } })]);
    expect(forced.stdout).toBe(plain.stdout);
    expect(plain.json().task.id).toBe('API-1');
  });

  it('prints help with examples for every command, and the version', () => {
    // One process runs the built CLI's main for every command: spawning one per command would be slow.
    const commands = [...BINDINGS.map((b) => b.command), 'init', 'mcp', 'serve', 'project', ''];
    const runs = h.runMany(commands.map((c) => [...c.split(' ').filter(Boolean), '--help']));
    const help = Object.fromEntries(commands.map((c, i) => [c, { code: runs[i]!.code, text: runs[i]!.stdout }]));
    for (const c of commands) {
      expect(help[c]!.code, c).toBe(0);
      expect(help[c]!.text, c).toContain(`Usage: cairn ${c}`.trim());
    }
    for (const b of BINDINGS) {
      expect(help[b.command]!.text, b.command).toContain('Examples:');
      expect(help[b.command]!.text, b.command).toContain(b.examples[0]!);
      expect(help[b.command]!.text, b.command).toContain('--json');
    }
    expect(help['update']!.text).toMatch(/--expected-version <n>/);
    expect(help['update']!.text).toMatch(/--no-assignee/);
    expect(help['check']!.text).toMatch(/--edit <index=text>/);
    expect(help['mcp']!.text).toMatch(/--toolsets <list>[\s\S]*--read-only[\s\S]*--profile <name>[\s\S]*--as <name>/);
    expect(help['serve']!.text).toMatch(/--port <port>.*\(default: "7420"\)/);
    const version = h.run(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    // The bin answers `--version` and `-V` alone before reading the CLI; with another option, commander answers.
    expect(h.run(['-V']).stdout).toBe(version.stdout);
    const viaCommander = h.run(['--db', join(h.dir, 'none.db'), '--version']);
    expect(viaCommander.code).toBe(0);
    expect(viaCommander.stdout).toBe(version.stdout);
  });

  it('`cairn` alone shows help and exits 1; `cairn help show` shows a command help', () => {
    const bare = h.run([]);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain('Usage: cairn');
    const sub = h.run(['help', 'show']);
    expect(sub.code).toBe(0);
    expect(sub.stdout).toContain('Usage: cairn show');
  });

  it.skipIf(!hasScript)('colours output on a real terminal, and NO_COLOR still turns it off there', () => {
    const onTty = (env: Record<string, string>): string => {
      const { NO_COLOR: _n, FORCE_COLOR: _f, ...base } = process.env;
      const r = spawnSync('script', ['-qec', `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} list`, '/dev/null'], {
        cwd: h.dir,
        encoding: 'utf8',
        env: { ...base, CAIRN_DB: h.db, ...env },
      });
      return r.stdout;
    };
    const coloured = onTty({});
    expect(coloured).toContain(ESC);
    expect(coloured).toContain('Colourful');
    expect(onTty({ NO_COLOR: '1' })).not.toContain(ESC);
  });
});
