/** The seed profiles Cairn serves, and the one place a profile name is checked. */
import './templates.js';
import { CairnError } from '../core/errors.js';
import { adeProfile } from './ade/index.js';
import { castleProfile } from './castle/index.js';
import { devplannerProfile } from './devplanner/index.js';
import { isNativeProfile, type Profile } from './profile.js';
import { txProfile } from './tx/index.js';

export const PROFILES: readonly Profile[] = [castleProfile, txProfile, devplannerProfile, adeProfile];

/** "native" (or nothing) is the native surface; an unknown name is an error listing the valid ones, never a fallback. */
export function findProfile(name: string | undefined): Profile | undefined {
  if (isNativeProfile(name)) return undefined;
  const n = name!.trim().toLowerCase();
  const p = PROFILES.find((x) => x.name === n);
  if (p) return p;
  throw new CairnError('VALIDATION_ERROR', `Unknown profile "${name}". Valid profiles: native, ${PROFILES.map((x) => x.name).join(', ')}.`, {
    suggestions: [`--profile ${PROFILES[0]!.name}`, 'leave --profile out (or CAIRN_PROFILE unset) for the native tools'],
  });
}

export type { Profile, ProfileCall, ProfileTool, ToolOutput } from './profile.js';
export { makeCall, runProfileTool, servedTools, type CallSources } from './serve.js';

/** A profile's optional toolsets from "write" / "all" / "default" (none); unknown names are refused, naming the known ones. */
export function parseProfileToolsets(profile: Profile, spec: string | undefined): string[] {
  const known = profile.toolsets ?? [];
  const out = new Set<string>();
  for (const p of (spec ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)) {
    if (p === 'all') known.forEach((t) => out.add(t));
    else if (p === 'default') continue;
    else if (known.includes(p)) out.add(p);
    else {
      throw new CairnError('VALIDATION_ERROR', `Unknown toolset "${p}" for profile ${profile.name}. Its toolsets: ${known.length ? `${known.join(', ')}, ` : ''}default, all.`, {
        suggestions: known.length ? [`--toolsets ${known.join(',')}`] : ['leave --toolsets out'],
      });
    }
  }
  return [...out];
}
