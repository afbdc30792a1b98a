// Trims the MCP SDK's per-message zod work in Cairn's server bundles. For every request the server
// SDK parses the message with up to four JSON-RPC schemas in turn (result response, error response,
// request, notification: two fail, and a failed zod parse builds its issues), parses the outgoing
// response again, and parses the tool's result with CallToolResultSchema. A CPU profile of `cairn mcp`
// put that at about a sixth of a get_task's server time while V8 is still compiling (docs/decisions.md,
// "Reaching into dependencies").
//
// - Each JSON-RPC type guard first checks the keys its strict schema requires (a message without
//   `method` cannot be a request), and only then parses: the answer is the same for every input.
// - A tool result is not parsed again: Cairn's tool handlers build every result in one place
//   (src/mcp/tool-result.ts), structuredContent already conformed to the advertised output schema,
//   and both SDK clients parse what they receive.
// Each replacement must apply exactly once per bundle; a changed SDK fails the build's check and the
// pinning test (test/mcp/sdk-hot-path-patch.test.ts), so an upgrade revisits the patch rather than losing it.

const SRC = /[\\/]@modelcontextprotocol[\\/]server[\\/]dist[\\/]src-[^\\/]+\.mjs$/;
const MCP = /[\\/]@modelcontextprotocol[\\/]server[\\/]dist[\\/]mcp-[^\\/]+\.mjs$/;

/** A JSON-RPC type guard that first checks the keys its schema requires (`value.key !== undefined`, as zod reads them). */
function guard(name, schema, keys) {
  const head = `const ${name} = (value) => `;
  const parse = `${schema}.safeParse(value).success;`;
  const check = ['value !== null', 'typeof value === "object"', ...keys.map((k) => `value.${k} !== undefined`)].join(' && ');
  return { file: SRC, find: head + parse, replace: `${head}${check} && ${parse}` };
}

/** file: the SDK's dist chunk (by its name's prefix; the hash changes per release); find → replace. */
export const SDK_HOT_PATH_PATCHES = [
  guard('isJSONRPCRequest', 'JSONRPCRequestSchema', ['method', 'id']),
  guard('isJSONRPCNotification', 'JSONRPCNotificationSchema', ['method']),
  guard('isJSONRPCResultResponse', 'JSONRPCResultResponseSchema', ['result', 'id']),
  guard('isJSONRPCErrorResponse', 'JSONRPCErrorResponseSchema', ['error']),
  {
    file: MCP,
    find: 'const validationResult = codec.validateResult("tools/call", normalizedResult);',
    replace: 'const validationResult = { ok: true, value: normalizedResult };',
  },
];

/**
 * An esbuild plugin applying SDK_HOT_PATH_PATCHES; `check()` after a build throws unless each
 * applied exactly once (esbuild loads a file once per build).
 */
export function sdkHotPathPatch() {
  const applied = new Map(SDK_HOT_PATH_PATCHES.map((p) => [p, 0]));
  return {
    plugin: {
      name: 'cairn-sdk-hot-path',
      setup(b) {
        b.onStart(() => {
          for (const p of applied.keys()) applied.set(p, 0);
        });
        b.onLoad({ filter: /[\\/]@modelcontextprotocol[\\/]server[\\/]dist[\\/][^\\/]+\.mjs$/ }, async (args) => {
          const mine = SDK_HOT_PATH_PATCHES.filter((p) => p.file.test(args.path));
          if (!mine.length) return undefined;
          const { readFile } = await import('node:fs/promises');
          let source = await readFile(args.path, 'utf8');
          for (const p of mine) {
            const parts = source.split(p.find);
            if (parts.length !== 2) continue;
            source = parts.join(p.replace);
            applied.set(p, applied.get(p) + 1);
          }
          return { contents: source, loader: 'js' };
        });
      },
    },
    check(bundle) {
      const missing = [...applied].filter(([, n]) => n !== 1).map(([p]) => p.find);
      if (missing.length) throw new Error(`bundle-mcp: the MCP SDK changed; scripts/sdk-hot-path-patch.js no longer applies to ${bundle}:\n  ${missing.join('\n  ')}`);
    },
  };
}
