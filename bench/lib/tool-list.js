// What a tool list costs, read through the v1 SDK client as a host reads it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/**
 * `model`: bytes of {name, title, description, inputSchema} per tool, summed: the part a model
 * reads in every prompt (tokens ≈ bytes/4). `answer`: bytes of the whole tools/list result, output
 * schemas and annotations included: what a client downloads, parses and compiles validators from.
 */
export async function toolListSize(entry, args) {
  const c = new Client({ name: 'bench', version: '1' });
  await c.connect(new StdioClientTransport({ command: process.execPath, args: [entry, ...args], stderr: 'ignore' }));
  try {
    const result = await c.listTools();
    const model = result.tools.reduce((n, t) => n + Buffer.byteLength(JSON.stringify({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema })), 0);
    return { tools: result.tools.length, model, answer: Buffer.byteLength(JSON.stringify(result)) };
  } finally {
    await c.close();
  }
}
