/**
 * Runs a profile's tools for any adapter (MCP over stdio or HTTP, in-process agent tools): parse the
 * seed's input, run the tool over the native ops, and turn any failure into the profile's own error
 * result. The project a call works on is decided here once, for every profile.
 */
import { basename } from 'node:path';
import { CairnError, toCairnError } from '../core/errors.js';
import { keyLetters, keyVariants } from '../core/rules/project-key.js';
import { findOp, gateRefusal, OPS, parseInput, runOp, type OpContext } from '../ops/index.js';
import type { OpName, OpOutput, Profile, ProfileCall, ProfileTool, ToolOutput } from './profile.js';

export interface CallSources {
  /** The op context for this call (default project already resolved by the adapter's scope). */
  context(): Promise<OpContext>;
  /** The profile's environment variables as the server was started with. */
  env: Readonly<Record<string, string | undefined>>;
  /** Bugs (INTERNAL) are reported here with their stack; callers see only the profile's error text. */
  onInternal?(err: unknown): void;
}

/** Builds the ProfileCall a tool or resource is handed. */
export async function makeCall(profile: Profile, sources: CallSources): Promise<ProfileCall> {
  const ctx = await sources.context();
  const op = async <N extends OpName>(name: N, args: Record<string, unknown>): Promise<OpOutput<N>> => {
    const found = findOp(name);
    if (!found) throw new Error(`profile ${profile.name} calls unknown op ${name}`);
    return (await runOp(found, ctx, args)) as OpOutput<N>;
  };
  return { ctx, op, env: sources.env, project: (opts) => projectFor(profile, ctx, sources.env, op, opts?.create === true) };
}

/**
 * The session's project, else the only project. When the profile's host names a project directory
 * (CASTLE_PROJECT_PATH) and no project is rooted there, there is none: that directory has no tasks
 * yet, and its first write makes a project rooted there.
 */
async function projectFor(profile: Profile, ctx: OpContext, env: CallSources['env'], op: ProfileCall['op'], create: boolean): Promise<string | undefined> {
  if (ctx.defaultProject) return ctx.defaultProject;
  const projectPath = profile.projectPathEnv ? env[profile.projectPathEnv] : undefined;
  if (projectPath) {
    const {
      projects: [rooted],
    } = await op('list_projects', { at: projectPath });
    if (rooted) return rooted.key;
  }
  const { projects } = await op('list_projects', {});
  if (!projectPath && projects.length === 1) return projects[0]!.key;
  if (!create) return undefined;
  if (!projectPath && projects.length > 1) {
    throw new CairnError('VALIDATION_ERROR', `This workspace has ${projects.length} projects and this server has no default one, so it cannot tell where to write. Nothing was changed.`, {
      suggestions: [`Restart the server with --project KEY or CAIRN_PROJECT=KEY (one of ${projects.map((p) => p.key).join(', ')})`],
    });
  }
  const taken = new Set(projects.map((p) => p.key));
  const key = keyCandidates(profile.defaultProject.key, projectPath).find((k) => !taken.has(k))!;
  const name = projectPath ? basename(projectPath) || profile.defaultProject.name : profile.defaultProject.name;
  try {
    const { project } = await op('create_project', { key, name, template: profile.template, ...(projectPath ? { root: projectPath } : {}) });
    return project.key;
  } catch (err) {
    // Two first writes can race (an agent's parallel tool calls): the one that lost reuses the project the winner created.
    if (err instanceof CairnError && err.code === 'PROJECT_EXISTS') return projectFor(profile, ctx, env, op, false).then((k) => k ?? Promise.reject(err));
    throw err;
  }
}

/** Keys to try for a new project: from the directory's name, then the profile's key, then lettered variants. */
export function keyCandidates(fallback: string, path: string | undefined): string[] {
  return keyVariants([keyLetters(path ? basename(path) : ''), fallback]);
}

/** Runs one tool call; never throws. */
/** `served`: the profile's toolsets the server serves, when a tool outside them may be called (it is refused, FORBIDDEN). */
export async function runProfileTool(profile: Profile, tool: ProfileTool, sources: CallSources, raw: unknown, served?: readonly string[]): Promise<ToolOutput> {
  try {
    const gated = { name: tool.name, readOnly: tool.readOnly, ...(tool.toolset ? { toolset: tool.toolset } : {}) };
    const toolsetRefusal = served ? gateRefusal(gated, { served }) : undefined;
    if (toolsetRefusal) throw toolsetRefusal;
    const input = parseInput({ name: tool.name, input: tool.input } as never, raw);
    const call = await makeCall(profile, sources);
    const refusal = gateRefusal(gated, { readOnly: call.ctx.readOnly, readOnlyReason: call.ctx.readOnlyReason });
    if (refusal) throw refusal;
    return await tool.run(call, input);
  } catch (err) {
    const e = toCairnError(err);
    if (e.code === 'INTERNAL') sources.onInternal?.(e.cause ?? err);
    const shown = inProfileTerms(profile, e);
    return { ...profile.error(shown, tool.name), isError: true, error: shown };
  }
}

const NATIVE_TOOL = new RegExp(`\\b(${OPS.map((o) => o.name).join('|')})\\b`, 'g');

/** The error with its suggestions naming the profile's tools (or dropped when they name native tools it lacks). */
function inProfileTerms(profile: Profile, err: CairnError): CairnError {
  const map = profile.toolFor ?? {};
  const suggestions: string[] = [];
  for (const s of err.suggestions) {
    let lacking = false;
    const text = s.replace(NATIVE_TOOL, (name) => map[name as OpName] ?? ((lacking = true), name));
    if (!lacking) suggestions.push(text);
  }
  if (suggestions.length === err.suggestions.length && suggestions.every((s, i) => s === err.suggestions[i])) return err;
  return new CairnError(err.code, err.message, { suggestions, ...(err.details ? { details: err.details } : {}), cause: err.cause });
}

/** The tools a server serves: those without a toolset, and those whose toolset was asked for; read-only servers list reads only. */
export function servedTools(profile: Profile, toolsets: readonly string[], readOnly: boolean): ProfileTool[] {
  return profile.tools.filter((t) => (!t.toolset || toolsets.includes(t.toolset)) && (!readOnly || t.readOnly));
}
