/**
 * The one decision whether a call may run here, for every surface: the CLI and the library (runOp),
 * MCP over stdio and HTTP (native tools and profiles), and REST. One code per reason:
 * - READ_ONLY: the call changes data and this session may only read — a read-only server
 *   (`--read-only`, CAIRN_READ_ONLY, `?readOnly`) or a token with scope "read" (HTTP 403 with
 *   `insufficient_scope`);
 * - FORBIDDEN: the tool's toolset is not served here (`--toolsets`), or the op administers the
 *   server (API tokens; import and export, which reach its files) and the caller may not: only the machine's owner may, or a token with scope
 *   "admin" that reaches every project (a token's holder could otherwise mint itself a wider one).
 */
import { CairnError } from '../core/errors.js';

/** Why a session may only read: the server was started so, or the caller's token has scope "read". */
export type ReadOnlyReason = 'server' | 'token';

export interface Gate {
  /** The session may only read. */
  readOnly?: boolean | undefined;
  readOnlyReason?: ReadOnlyReason | undefined;
  /** The toolsets served (MCP); undefined serves every toolset. */
  served?: readonly string[] | undefined;
  /** The caller may run `admin` ops (OpContext.mayAdminister); undefined: yes. */
  mayAdminister?: boolean | undefined;
}

export interface Gated {
  name: string;
  /** True for a call that changes nothing. */
  readOnly: boolean;
  /** Its toolset, when it has one (ops; some profile tools). */
  toolset?: string | undefined;
  /** It administers the server (Op.admin). */
  admin?: boolean | undefined;
}

/** The refusal for `what` under `gate`, or undefined when it may run. */
export function gateRefusal(what: Gated, gate: Gate): CairnError | undefined {
  if (what.toolset && gate.served && !gate.served.includes(what.toolset)) {
    const served = gate.served;
    return new CairnError('FORBIDDEN', `${what.name} is in the ${what.toolset} toolset, which this server does not serve (it serves ${served.join(', ') || 'no toolset'}). Nothing was changed.`, {
      suggestions: [`Ask the user to restart the server with --toolsets ${[...served, what.toolset].join(',')} (or CAIRN_TOOLSETS=all)`, 'Use a listed tool instead'],
      details: { reason: 'toolset', toolset: what.toolset },
    });
  }
  // Before the read-only check: a read token asking for a token needs scope "admin", not "write".
  if (what.admin && gate.mayAdminister === false) {
    return new CairnError(
      'FORBIDDEN',
      `${what.name} administers this server (its API tokens, or files on its machine), which needs a token with scope "admin" that is not limited to projects; this caller's token is not one. Nothing was done.`,
      {
        suggestions: [
          "On the server's machine: cairn token create --name NAME --scope admin (no --project), then call with that token",
          'Or run cairn token create|list|revoke there, without --remote',
        ],
        details: { reason: 'admin', requiredScope: 'admin' },
      },
    );
  }
  if (!gate.readOnly || what.readOnly) return undefined;
  if (gate.readOnlyReason === 'token') {
    return new CairnError('READ_ONLY', `${what.name} changes data, and this session may only read: its token has scope "read" (writing needs scope "write"). Nothing was changed.`, {
      suggestions: ['cairn token create --name NAME --scope write, then call with that token', 'Use a read operation instead'],
      details: { reason: 'token', requiredScope: 'write' },
    });
  }
  return new CairnError('READ_ONLY', `${what.name} changes data, and this server is read-only. Nothing was changed.`, {
    suggestions: ['Use a read tool instead, or restart the server without --read-only / CAIRN_READ_ONLY'],
    details: { reason: 'server' },
  });
}
