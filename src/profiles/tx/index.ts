/**
 * The tx profile (seed 002): tx's ten tools with its TaskWithDeps answers, limits, texts and two
 * content blocks (text, then JSON), plus structuredContent. tx has no projects: its tasks live in
 * the session's project, or the workspace's only one (a tx-template project made on the first
 * tx_add when there is none). Errors are tx's `Error: <message>` text results; Cairn's code and
 * suggestions ride along outside the text (ToolOutput.error).
 */
import { PROFILE_SERVER_NAMES, type Profile } from '../profile.js';
import { txTools } from './tools.js';

export const txProfile: Profile = {
  name: 'tx',
  serverName: PROFILE_SERVER_NAMES.tx,
  instructions: 'tx: dependency-aware tasks. tx_ready for what to work on, tx_show for details, tx_done when finished (it lists what became ready).',
  template: 'tx',
  defaultProject: { key: 'TX', name: 'tx tasks' },
  workspaceEnv: 'TX_DB',
  tools: txTools,
  toolFor: {
    get_task: 'tx_show',
    list_tasks: 'tx_list',
    next_tasks: 'tx_ready',
    create_task: 'tx_add',
    update_task: 'tx_update',
    complete_task: 'tx_done',
    remove_dependency: 'tx_unblock',
    add_dependency: 'tx_block',
  },
  error: (err) => ({ content: [`Error: ${err.message}`], isError: true }),
};
