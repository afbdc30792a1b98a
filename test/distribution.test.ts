/**
 * Where users look for MCP servers: server.json for the official MCP Registry, valid against the
 * registry's published schema (test/fixtures/mcp-registry/server.schema.json), and in step with
 * package.json and with the environment the server really reads.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const read = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));

describe('server.json for the MCP Registry', () => {
  const server = read('server.json');
  const pkg = read('package.json');

  it('validates against the registry schema of 2025-12-11', () => {
    const schema = read('test/fixtures/mcp-registry/server.schema.json');
    const ajv = new Ajv({ allErrors: true, strict: false });
    (addFormats as unknown as (a: Ajv) => void)(ajv);
    const validate = ajv.compile(schema);
    expect(validate(server), JSON.stringify(validate.errors, null, 1)).toBe(true);
    expect(server.$schema).toBe(schema.$id);
    // The schema holds: a description over 100 characters or a name without its namespace is refused.
    expect(validate({ ...server, description: 'x'.repeat(101) })).toBe(false);
    expect(validate({ ...server, name: 'cairn' })).toBe(false);
  });

  it('names the npm package as package.json does, and runs `cairn mcp` over stdio', () => {
    expect(server.name).toBe(pkg.mcpName);
    expect(server.name).toMatch(/^io\.github\.[^/]+\/[^/]+$/);
    expect(server.version).toBe(pkg.version);
    const [npm] = server.packages;
    expect(npm).toMatchObject({ registryType: 'npm', identifier: pkg.name, version: pkg.version, transport: { type: 'stdio' } });
    expect(Object.keys(pkg.bin)).toEqual(['cairn']);
    expect(npm.packageArguments.map((a: { value: string }) => a.value)).toEqual(['mcp']);
  });

  it('lists environment variables the server reads, with the secret ones marked', () => {
    const env = server.packages[0].environmentVariables as Array<{ name: string; isSecret: boolean }>;
    // Read by the code (PGPASSWORD by the pg driver, which the docs say), not only listed.
    const code = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => readFileSync(join(ROOT, 'src', f), 'utf8'))
      .join('\n');
    const sources = `${code}\n${readFileSync(join(ROOT, 'docs', 'postgres.md'), 'utf8')}`;
    for (const v of env) expect(sources, v.name).toContain(v.name);
    expect(
      env
        .filter((v) => v.isSecret)
        .map((v) => v.name)
        .sort(),
    ).toEqual(['CAIRN_TOKEN', 'PGPASSWORD']);
  });
});
