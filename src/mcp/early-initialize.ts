/**
 * The native server's identity, and its answer to a 2025 client's `initialize` given before the MCP
 * SDK and Cairn's modules have loaded. Loading them takes about as long again as starting Node, and
 * hosts wait for that answer (some give up after a timeout): the standalone stdio entry reads the
 * first line itself and, when it is a well-formed 2025 `initialize`, answers at once from here,
 * then loads the server and hands it the same request, whose answer the transport then drops
 * (stdio-guard.ts). test/mcp/early-initialize.test.ts checks the answer is the one the SDK gives,
 * for every protocol version it speaks. Profiles, 2026 clients and anything unusual take the
 * ordinary path. This file imports nothing: it is all that loads before the answer.
 */

export const SERVER_NAME = 'cairn';
export const SERVER_VERSION = '0.1.0';

export const INSTRUCTIONS =
  'Cairn tracks tasks for this repository. Start with board_overview or next_tasks; claim_task before you work on a task; ' +
  'keep its checklist current with update_checklist; complete_task when done (it lists what became ready). ' +
  'Tools default to the session project; pass project or allProjects: true to look elsewhere. ' +
  'Errors begin with a code (TASK_NOT_FOUND, VALIDATION_ERROR, …) and suggest the call that fixes them.';

/** What the native server declares (server.ts), as the SDK reports it once every tool, resource and prompt is registered. */
export const NATIVE_CAPABILITIES = { tools: { listChanged: false }, resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, logging: {}, completions: {} };

/** The 2025-era protocol versions the SDK negotiates, newest first (its SUPPORTED_PROTOCOL_VERSIONS; the test compares). */
export const LEGACY_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

/** Hosts send initialize as soon as they spawn the server; one that waits longer gets no early answer. */
export const EARLY_WAIT_MS = 100;

/**
 * Whether a server started so answers initialize early. A profile's server has its own name and
 * capabilities, and a toolset list or remote server may be refused as the server starts (the host
 * then sees that exit instead of an answer): those answer once loaded.
 */
export function answersEarly(opts: { profile?: string; toolsets?: string; remote?: string }, env: NodeJS.ProcessEnv): boolean {
  return !opts.profile && !opts.toolsets && !opts.remote && !env.CAIRN_PROFILE && !env.CAIRN_TOOLSETS && !env.CAIRN_URL;
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The JSON-RPC answer the native server gives this message, if it is a plain 2025 `initialize`
 * (no `_meta`, which is where a 2026 client's claim would be); undefined for anything else.
 */
export function initializeAnswer(message: unknown): { jsonrpc: '2.0'; id: string | number; result: Rec } | undefined {
  if (!isRec(message) || message.jsonrpc !== '2.0' || message.method !== 'initialize') return undefined;
  const { id, params } = message;
  if ((typeof id !== 'string' && typeof id !== 'number') || !isRec(params) || '_meta' in params) return undefined;
  const { protocolVersion, capabilities, clientInfo } = params;
  if (typeof protocolVersion !== 'string' || !isRec(capabilities) || !isRec(clientInfo)) return undefined;
  if (typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string') return undefined;
  return {
    jsonrpc: '2.0',
    id,
    result: {
      protocolVersion: LEGACY_PROTOCOL_VERSIONS.includes(protocolVersion) ? protocolVersion : LEGACY_PROTOCOL_VERSIONS[0],
      capabilities: NATIVE_CAPABILITIES,
      serverInfo: { name: SERVER_NAME, title: 'Cairn', version: SERVER_VERSION },
      instructions: INSTRUCTIONS,
    },
  };
}

/** The bytes read before the server loaded, and the id of the `initialize` already answered, if one was. */
export interface EarlyStart {
  pending: Buffer;
  /** The answer already written: the server's own answer to that request is dropped. */
  answered?: { id: string | number; result: Rec };
}

/**
 * Waits (up to `waitMs`) for the first chunk of stdin and answers it if it opens with a plain 2025 `initialize`.
 * stdin is left paused with nothing lost: the transport starts with `pending`, then resumes it.
 */
export function answerInitializeEarly(waitMs: number, input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stdout): Promise<EarlyStart> {
  return new Promise((resolve) => {
    // A client that does not speak first gets no early answer: loading the server is not held up for it.
    const timer = setTimeout(() => done({ pending: Buffer.alloc(0) }), waitMs);
    // Once only, even if a listener outlives off() (a preload that wraps stdin's listeners, say).
    let finished = false;
    const done = (start: EarlyStart) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      input.off('data', onData);
      input.off('end', onEnd);
      input.pause();
      resolve(start);
    };
    const onData = (chunk: Buffer | string) => {
      if (finished) return;
      const pending = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      const nl = pending.indexOf(0x0a);
      let answer: ReturnType<typeof initializeAnswer>;
      if (nl >= 0) {
        try {
          answer = initializeAnswer(JSON.parse(pending.subarray(0, nl).toString('utf8')));
        } catch {
          // Not JSON: the transport answers it with its parse error.
        }
      }
      if (answer) output.write(`${JSON.stringify(answer)}\n`);
      done(answer ? { pending, answered: { id: answer.id, result: answer.result } } : { pending });
    };
    const onEnd = () => done({ pending: Buffer.alloc(0) });
    input.on('data', onData);
    input.once('end', onEnd);
  });
}
