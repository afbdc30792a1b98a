/** DevPlanner's input vocabulary (seed 004): the field schemas its 17 tools share, with the seed's descriptions. */
import * as z from 'zod';
import { ChecklistText, Description, Labels, Title } from '../../core/model/task.js';
import { DP_PRIORITIES, LANES } from './cards.js';

export const ProjectSlug = z.string().min(1).max(200).describe('Project identifier (slug)');
export const CardSlug = z.string().min(1).max(200).describe('Card identifier (filename without .md)');
export const LaneArg = z.enum(LANES);
export const PriorityArg = z.enum(DP_PRIORITIES);
export const AssigneeArg = z.enum(['user', 'agent']);
export const StatusArg = z.enum(['in-progress', 'blocked', 'review', 'testing']);
/** Cairn's own field rules, so a bad value is named by the seed's field (tags.0, title) rather than the native one. */
export const Tags = Labels;
export const CardTitle = Title;
export const Content = Description;
export const TaskText = ChecklistText;
export const TaskIndex = z.number().int().min(0).max(9999);
