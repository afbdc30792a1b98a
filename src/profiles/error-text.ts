/** The native error text as a profile tool result, for profiles whose seed names no error format. */
import type { CairnError } from '../core/errors.js';
import { errorText } from '../ops/error-text.js';
import type { ToolOutput } from './profile.js';

export const errorOutput = (err: CairnError): ToolOutput => ({ content: [errorText(err)], isError: true });
