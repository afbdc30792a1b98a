/**
 * Registers each profile's workflow template into the core's registry (core/model/workflow.ts), so
 * create_project, import and the links know them by name. Light on purpose (no tools): every entry
 * point that can run an op loads it first (src/index.ts, src/workspace.ts, the CLI, MCP and HTTP
 * mains; src/profiles/index.ts too). Order is the order create_project lists them in.
 */
import { registerTemplate } from '../core/model/workflow.js';
import { CASTLE_TEMPLATE } from './castle/template.js';
import { DEVPLANNER_TEMPLATE } from './devplanner/template.js';
import { TX_TEMPLATE } from './tx/template.js';

registerTemplate('castle', CASTLE_TEMPLATE);
registerTemplate('tx', TX_TEMPLATE);
registerTemplate('devplanner', DEVPLANNER_TEMPLATE);
