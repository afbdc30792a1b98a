/** The MCP bundles' SDK patch (scripts/sdk-hot-path-patch.js) still matches the installed SDK, and its type guards answer as the SDK's own. */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { isJSONRPCErrorResponse, isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResultResponse } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JS build script, no types
import { SDK_HOT_PATH_PATCHES } from '../../scripts/sdk-hot-path-patch.js';

interface Patch {
  file: RegExp;
  find: string;
  replace: string;
}
const patches = SDK_HOT_PATH_PATCHES as Patch[];
// The package's main file is dist/index.cjs; the chunks the bundles take are beside it.
const dist = dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server'));
const files = readdirSync(dist)
  .filter((f) => f.endsWith('.mjs'))
  .map((f) => join(dist, f));

/** The key check a patched guard runs before the SDK's own parse, taken from the replacement text. */
function keyCheck(name: string): (value: unknown) => boolean {
  const p = patches.find((x) => x.find.startsWith(`const ${name} = `));
  const prefix = /=> (.*) && JSONRPC\w+Schema\.safeParse/.exec(p!.replace)![1];
  return new Function('value', `return ${prefix};`) as (value: unknown) => boolean;
}

describe('MCP SDK hot-path patch', () => {
  it('each replacement matches exactly one place in the installed SDK (an upgrade that changes them must revisit the patch)', () => {
    for (const p of patches) {
      const hits = files.filter((f) => p.file.test(f)).map((f) => readFileSync(f, 'utf8').split(p.find).length - 1);
      expect(
        hits.reduce((a, b) => a + b, 0),
        p.find,
      ).toBe(1);
    }
  });

  const guards = { isJSONRPCRequest, isJSONRPCNotification, isJSONRPCResultResponse, isJSONRPCErrorResponse };
  const messages = fc.oneof(
    fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.integer(), fc.string()), method: fc.string(), params: fc.option(fc.object(), { nil: undefined }) }, { requiredKeys: ['jsonrpc'] }),
    fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.integer(), fc.string()), result: fc.object() }, { requiredKeys: ['jsonrpc'] }),
    fc.record({ jsonrpc: fc.constant('2.0'), id: fc.integer(), error: fc.record({ code: fc.integer(), message: fc.string() }) }, { requiredKeys: ['jsonrpc'] }),
    fc.anything(),
  );

  for (const [name, original] of Object.entries(guards)) {
    it(`${name} answers as the SDK's own for any value: its key check never refuses what the schema accepts`, () => {
      const check = keyCheck(name);
      fc.assert(fc.property(messages, (m) => (check(m) && original(m)) === original(m)));
    });
  }

  it('the key checks refuse the case they exist for: a request is no response', () => {
    const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_task' } };
    expect(keyCheck('isJSONRPCResultResponse')(request)).toBe(false);
    expect(keyCheck('isJSONRPCErrorResponse')(request)).toBe(false);
    expect(keyCheck('isJSONRPCRequest')(request)).toBe(true);
  });
});
