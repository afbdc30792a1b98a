/** The official MCP conformance suite (released line) against a real `cairn serve`: no scenario that applies to Cairn may fail. */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SCRIPT = resolve(import.meta.dirname, '../../scripts/conformance.js');

describe('MCP conformance (scripts/conformance.js)', () => {
  // The timeout bounds a hang on a loaded machine (a run takes seconds); it is no speed requirement.
  // Which scenarios do not apply is the script's list by name (NOT_APPLICABLE), never a failure's message.
  it('passes every applicable server scenario of @modelcontextprotocol/conformance', { timeout: 300_000 }, async () => {
    const { code, out } = await new Promise<{ code: number | null; out: string }>((done) => {
      const child = spawn(process.execPath, [SCRIPT, '--no-write'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.on('close', (c) => done({ code: c, out }));
    });
    expect(out).toMatch(/conformance@[\d.]+: \d+ passed, 0 failed/);
    expect(code, out).toBe(0);
    for (const s of ['server-initialize', 'tools-list', 'dns-rebinding-protection', 'server-sse-multiple-streams']) expect(out).toMatch(new RegExp(`^passed +${s}`, 'm'));
  });
});
