/** DevPlanner's input vocabulary (seed 004): the field schemas its 17 tools share, with the seed's descriptions. */
import * as z from 'zod';
import { DP_PRIORITIES, LANES } from './cards.js';

export const ProjectSlug = z.string().min(1).max(200).describe('Project identifier (slug)');
export const CardSlug = z.string().min(1).max(200).describe('Card identifier (filename without .md)');
export const LaneArg = z.enum(LANES);
export const PriorityArg = z.enum(DP_PRIORITIES);
export const AssigneeArg = z.enum(['user', 'agent']);
export const StatusArg = z.enum(['in-progress', 'blocked', 'review', 'testing']);
export const Tags = z.array(z.string());
export const TaskIndex = z.number().int().min(0).max(9999);
