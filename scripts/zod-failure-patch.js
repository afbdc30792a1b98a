// Replaces zod's safeParse failure object in the MCP bundle with one whose `error` getter lives on a
// class prototype. zod 4.6 returns `{ success: false, get error() {…} }`: a fresh getter closure per
// failed parse, which V8 can only describe with a new hidden class (map) in old space. That map keeps
// the closure — and the captured issues, parse context and the whole parsed input — alive through
// every young-generation GC until the next full one. The MCP SDK fails two safeParse calls on every
// inbound request (isJSONRPCResultResponse/isJSONRPCErrorResponse before isJSONRPCRequest), so each
// request's data survived and was promoted: 2 MB per scavenge, 3–8 ms pauses, read p99 over 3 ms.
// See docs/decisions.md (MCP). Same behaviour otherwise: the error is built on first read, settable.

/** zod's own text, which the replacement must match exactly; a zod upgrade that changes it is reported. */
export const ZOD_FAILURE_PATTERN = /function failure\(Err, issues, ctx\) \{\n    let error;\n    return \{\n        success: false,\n        get error\(\) \{[\s\S]*?\n\}\n/;

export const ZOD_FAILURE_REPLACEMENT = `class SafeParseFailure {
    #Err; #issues; #ctx; #error;
    constructor(Err, issues, ctx) { this.success = false; this.#Err = Err; this.#issues = issues; this.#ctx = ctx; }
    get error() {
        if (!this.#error) {
            this.#error = new this.#Err(this.#issues.map((iss) => util.finalizeIssue(iss, this.#ctx, core.config())));
            this.#issues = undefined;
            this.#ctx = undefined;
        }
        return this.#error;
    }
    set error(e) { this.#error = e; this.#issues = undefined; this.#ctx = undefined; }
}
function failure(Err, issues, ctx) {
    return new SafeParseFailure(Err, issues, ctx);
}
`;

/** An esbuild plugin applying the replacement to zod/v4/core/parse.js (ESM build). */
export function zodFailurePatch({ onMissing }) {
  return {
    name: 'cairn-zod-failure',
    setup(b) {
      b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]core[\\/]parse\.js$/ }, async (args) => {
        const { readFile } = await import('node:fs/promises');
        const source = await readFile(args.path, 'utf8');
        if (!ZOD_FAILURE_PATTERN.test(source)) {
          onMissing(args.path);
          return undefined;
        }
        return { contents: source.replace(ZOD_FAILURE_PATTERN, ZOD_FAILURE_REPLACEMENT), loader: 'js' };
      });
    },
  };
}
