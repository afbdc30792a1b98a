/**
 * The JSON Schema validator Cairn hands the MCP SDK (ServerOptions.jsonSchemaValidator, public API).
 * The SDK would otherwise build an Ajv validator for every McpServer — one per stdio connection and
 * one per HTTP request — used only for elicitation answers and fromJsonSchema() tools, neither of
 * which Cairn has: its tools' schemas are zod, parsed by run-op.
 */
import type { jsonSchemaValidator } from '@modelcontextprotocol/server';

export const noJsonSchemaValidator: jsonSchemaValidator = {
  getValidator() {
    throw new Error('Cairn validates with zod (run-op); JSON Schema validation (elicitation, fromJsonSchema tools) is not used');
  },
};
