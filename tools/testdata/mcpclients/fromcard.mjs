// Connects the TypeScript SDK v2 client to an MCP server knowing only the
// site's origin: the AI Catalog at /.well-known/ai-catalog.json names the
// Server Card, the card's streamable-http remote names the MCP URL.
// argv: <origin> <directory of the @modelcontextprotocol/client package>
// Prints one JSON line: {card, mcpUrl, negotiated, tools}.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const [origin, pkgDir] = process.argv.slice(2);
const pj = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
let entry = pj.exports?.['.'] ?? pj.module ?? pj.main;
while (typeof entry === 'object') entry = entry.import ?? entry.default;
const { Client, StreamableHTTPClientTransport } = await import(pathToFileURL(join(pkgDir, entry)).href);

async function getJSON(url, accept) {
  const res = await fetch(url, { headers: { accept } });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  return res.json();
}

const catalog = await getJSON(new URL('/.well-known/ai-catalog.json', origin), 'application/ai-catalog+json');
const entryCard = catalog.entries.find((e) => e.type === 'application/mcp-server-card+json');
if (!entryCard) throw new Error('the AI Catalog has no MCP Server Card entry');
const card = entryCard.data ?? (await getJSON(entryCard.url, 'application/mcp-server-card+json'));
const remote = card.remotes.find((r) => r.type === 'streamable-http');
if (!remote) throw new Error('the Server Card has no streamable-http remote');

const client = new Client({ name: 'launchdir-fromcard', version: '0' }, { versionNegotiation: { mode: 'auto' } });
await client.connect(new StreamableHTTPClientTransport(new URL(remote.url)));
const { tools } = await client.listTools();
console.log(JSON.stringify({ card: entryCard.url, mcpUrl: remote.url, negotiated: client.getNegotiatedProtocolVersion(), tools: tools.map((t) => t.name) }));
await client.close();
