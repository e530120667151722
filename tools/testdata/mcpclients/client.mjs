// TypeScript SDK client for tools/conformance_clients_test.go:
//   node client.mjs <url> <tool> <outside-tool>
// MCP_SDK_DIR is the installed @modelcontextprotocol/sdk (the script is not
// inside the install, so the SDK is imported by path); MCP_HEADERS is a JSON
// object of extra request headers. It connects, lists the tools, calls
// <tool> with no arguments (the SDK validates structuredContent against the
// output schema) and <outside-tool> (expected to fail), and prints one JSON
// line: {protocol, tools, call: {isError, text}, outside: {error}}.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const sdk = process.env.MCP_SDK_DIR;
const { Client } = await import(pathToFileURL(join(sdk, 'dist/esm/client/index.js')).href);
const { StreamableHTTPClientTransport } = await import(pathToFileURL(join(sdk, 'dist/esm/client/streamableHttp.js')).href);

const [url, tool, outsideTool] = process.argv.slice(2);
const headers = JSON.parse(process.env.MCP_HEADERS || '{}');
const client = new Client({ name: 'launchdir-ts-test', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
await client.connect(transport);
const out = { protocol: transport.protocolVersion ?? null, tools: (await client.listTools()).tools.map((t) => t.name) };
if (tool) {
  const r = await client.callTool({ name: tool, arguments: {} });
  out.call = { isError: !!r.isError, text: String(r.content?.[0]?.text ?? '').slice(0, 300) };
}
if (outsideTool) {
  try {
    const r = await client.callTool({ name: outsideTool, arguments: {} });
    out.outside = { error: '', isError: !!r.isError, text: String(r.content?.[0]?.text ?? '').slice(0, 300) };
  } catch (e) {
    out.outside = { error: String(e?.message ?? e) };
  }
}
await client.close();
console.log(JSON.stringify(out));
