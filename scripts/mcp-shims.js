// Stands in for @modelcontextprotocol/server/_shims in the stdio bundle: the SDK builds an Ajv JSON Schema
// validator (150 KB of code plus its construction) for every server, used only to check elicitation
// answers and fromJsonSchema() tools. Cairn uses neither (its schemas are zod, validated by run-op), and
// start-up time matters, so the bundle ships this instead. Unbundled dist/ keeps the real shim.
import process from 'node:process';

export class DefaultJsonSchemaValidator {
  getValidator() {
    throw new Error('JSON Schema validation is not bundled into cairn mcp (no elicitation or fromJsonSchema tools are used)');
  }
}
export { process };
