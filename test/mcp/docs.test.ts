/** docs/mcp.md documents every tool and every argument the server advertises (the committed tool snapshot is the truth). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TOOLSETS, OPS } from '../../src/ops/index.js';
import { ROOT } from './helpers.js';

const doc = readFileSync(`${ROOT}docs/mcp.md`, 'utf8');
const tools = JSON.parse(readFileSync(`${ROOT}test/mcp/__snapshots__/tools.json`, 'utf8')) as Array<{ name: string; description: string; inputSchema: { properties?: Record<string, unknown> } }>;

describe('docs/mcp.md', () => {
  it('has a section per tool with its current description and every argument (else run node scripts/mcp-docs.js)', () => {
    for (const t of tools) {
      const start = doc.indexOf(`#### \`${t.name}\` — `);
      expect(start, t.name).toBeGreaterThan(0);
      const section = doc.slice(start, doc.indexOf('\n#### ', start + 1));
      expect(section, t.name).toContain(t.description);
      for (const arg of Object.keys(t.inputSchema.properties ?? {})) expect(section, `${t.name}.${arg}`).toContain(`| \`${arg}\``);
      expect(section, `${t.name} example`).toContain('Example:');
    }
  });

  it('names every error code, resource and prompt', () => {
    for (const code of [
      'TASK_NOT_FOUND',
      'PROJECT_NOT_FOUND',
      'VALIDATION_ERROR',
      'INVALID_STATUS',
      'CYCLE_DETECTED',
      'VERSION_CONFLICT',
      'ALREADY_CLAIMED',
      'CHECKLIST_INDEX_OUT_OF_RANGE',
      'READ_ONLY',
    ]) {
      expect(doc).toContain(`| \`${code}\` |`);
    }
    for (const s of [
      'cairn://projects`',
      'cairn://projects/{key}',
      'cairn://tasks/{id}',
      '`work-next`',
      '`plan-feature`',
      '`standup`',
      'claude mcp add',
      'claude_desktop_config.json',
      '.vscode/mcp.json',
      '.cursor/mcp.json',
    ])
      expect(doc).toContain(s);
  });

  it("the README's tool counts are the server's (else run node scripts/mcp-docs.js)", () => {
    const readme = readFileSync(`${ROOT}README.md`, 'utf8');
    const defaults = OPS.filter((o) => DEFAULT_TOOLSETS.includes(o.toolset)).length;
    expect(readme).toContain(`${defaults} tools by default`);
    expect(readme).toContain(`serves all ${tools.length},`);
    expect(tools.length).toBe(OPS.length);
  });
});
