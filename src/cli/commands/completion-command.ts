/**
 * `cairn completion bash|zsh|fish`: a shell completion script generated from the program itself (commands,
 * subcommands and their flags), so it never lists a command or flag cairn does not have.
 */
import type { Command } from 'commander';
import { CairnError } from '../../core/errors.js';
import { writeOut } from '../stdout.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

interface Entry {
  /** Command words, e.g. ['project', 'create']; [] is the program. */
  path: string[];
  summary: string;
  flags: string[];
  subcommands: Array<{ name: string; summary: string }>;
}

function entries(program: Command): Entry[] {
  const out: Entry[] = [];
  const globals = program.options.map((o) => o.long).filter((f): f is string => !!f);
  const visit = (cmd: Command, path: string[]): void => {
    const subs = cmd.commands.filter((c) => c.name() !== 'help');
    const own = cmd.options
      .filter((o) => !o.hidden)
      .map((o) => o.long)
      .filter((f): f is string => !!f);
    out.push({
      path,
      summary: (cmd as Command & { summary(): string }).summary() || cmd.description().split('\n')[0] || '',
      flags: [...new Set([...own, ...globals, '--help'])],
      subcommands: subs.map((c) => ({ name: c.name(), summary: (c as Command & { summary(): string }).summary() || c.description().split('\n')[0] || '' })),
    });
    for (const c of subs) visit(c, [...path, c.name()]);
  };
  visit(program, []);
  return out;
}

const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

function bash(es: Entry[]): string {
  const cases = es.map((e) => `    ${q(e.path.join(' '))}) words=${q([...e.subcommands.map((s) => s.name), ...e.flags].join(' '))} ;;`);
  return `# cairn completion for bash: source it from ~/.bashrc, e.g.  source <(cairn completion bash)
_cairn_complete() {
  local cur cpath="" w i
  cur="\${COMP_WORDS[COMP_CWORD]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ $w == -* ]] && continue
    case "\${cpath:+$cpath }$w" in
${es
  .filter((e) => e.path.length)
  .map((e) => `      ${q(e.path.join(' '))}) cpath=${q(e.path.join(' '))} ;;`)
  .join('\n')}
    esac
  done
  local words
  case "$cpath" in
${cases.join('\n')}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _cairn_complete cairn
`;
}

function zsh(es: Entry[]): string {
  const cases = es.map((e) => {
    const items = [...e.subcommands.map((s) => `${s.name.replace(/:/g, '\\:')}:${s.summary.replace(/'/g, '')}`)];
    return `    ${q(e.path.join(' '))}) subs=(${items.map(q).join(' ')}); flags=(${e.flags.map(q).join(' ')}) ;;`;
  });
  return `#compdef cairn
# cairn completion for zsh: put it on $fpath as _cairn, or  source <(cairn completion zsh)
_cairn() {
  local cpath="" w i
  # not "path": in zsh that is tied to $PATH
  local -a subs flags
  for ((i = 2; i < CURRENT; i++)); do
    w="\${words[i]}"
    [[ $w == -* ]] && continue
    case "\${cpath:+$cpath }$w" in
${es
  .filter((e) => e.path.length)
  .map((e) => `      ${q(e.path.join(' '))}) cpath=${q(e.path.join(' '))} ;;`)
  .join('\n')}
    esac
  done
  case "$cpath" in
${cases.join('\n')}
  esac
  if [[ "\${words[CURRENT]}" == -* ]]; then
    compadd -- $flags
  else
    (( \${#subs} )) && _describe 'cairn command' subs || _files
  fi
}
if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then _cairn "$@"; else compdef _cairn cairn; fi
`;
}

function fish(es: Entry[]): string {
  const lines = ['# cairn completion for fish: cairn completion fish > ~/.config/fish/completions/cairn.fish', 'complete -c cairn -f'];
  for (const e of es) {
    const cond = e.path.length === 0 ? '__fish_use_subcommand' : `__fish_seen_subcommand_from ${e.path[e.path.length - 1]}`;
    for (const s of e.subcommands) lines.push(`complete -c cairn -n ${q(cond)} -a ${q(s.name)} -d ${q(s.summary)}`);
    for (const f of e.flags) lines.push(`complete -c cairn -n ${q(cond)} -l ${q(f.replace(/^--/, ''))}`);
  }
  return `${lines.join('\n')}\n`;
}

export function completionScript(program: Command, shell: string): string {
  if (!(SHELLS as readonly string[]).includes(shell)) {
    throw new CairnError('VALIDATION_ERROR', `No completion for shell "${shell}": cairn completes ${SHELLS.join(', ')}.`, { suggestions: SHELLS.map((s) => `cairn completion ${s}`) });
  }
  const es = entries(program);
  return { bash, zsh, fish }[shell as Shell](es);
}

export function addCompletionCommand(program: Command): void {
  program
    .command('completion')
    .description('Print a shell completion script: bash, zsh or fish')
    .argument('<shell>', `the shell: ${SHELLS.join('|')}`)
    .addHelpText(
      'after',
      '\nExamples:\n  source <(cairn completion bash)            # in ~/.bashrc\n  cairn completion zsh > "${fpath[1]}/_cairn"\n  cairn completion fish > ~/.config/fish/completions/cairn.fish',
    )
    .action((shell: string) => {
      writeOut(completionScript(program, shell));
    });
}
