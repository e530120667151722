// TypeScript SDK client for tools/conformance_clients_test.go, one process
// for many sessions:
//   node client.mjs
// Each line of standard input is a JSON request {id, url, tool, outside,
// headers}; for each, a new client connects to <url> with the extra request
// headers, lists the tools, calls <tool> with no arguments (the SDK validates
// structuredContent against the output schema) and <outside> (expected to
// fail), closes, and prints one JSON line:
// {id, protocol, tools, call: {isError, text}, outside: {error}}, or
// {id, error} when the session failed. Requests run concurrently, each with a
// client and transport of its own; the process ends when its input does.
// MCP_SDK_DIR is the installed @modelcontextprotocol/sdk (the script is not
// inside the install, so the SDK is imported by path).
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const sdk = process.env.MCP_SDK_DIR;
const { Client } = await import(pathToFileURL(join(sdk, 'dist/esm/client/index.js')).href);
const { StreamableHTTPClientTransport } = await import(pathToFileURL(join(sdk, 'dist/esm/client/streamableHttp.js')).href);

async function session({ url, tool, outside: outsideTool, headers }) {
  const client = new Client({ name: 'launchdir-ts-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: headers ?? {} } });
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
  return out;
}

const running = [];
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const req = JSON.parse(line);
  running.push(session(req).then(
    (out) => console.log(JSON.stringify({ id: req.id, ...out })),
    (e) => console.log(JSON.stringify({ id: req.id, error: String(e?.stack ?? e) })),
  ));
}
await Promise.all(running);
