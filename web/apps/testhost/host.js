// A test host for the MCP App cards (tools/apps_browser_e2e_test.go): the
// host side of the official @modelcontextprotocol/ext-apps SDK (AppBridge)
// with the official MCP TypeScript client connected to the server's real
// /mcp endpoint. It does what an assistant host does: reads the tool's
// ui:// resource, renders it in a sandboxed iframe, sends the tool's input
// and result, and forwards the card's tool calls to the server. It records
// what the card asks it to open (window.opened).
//
// The iframe is sandboxed with allow-scripts and allow-same-origin, so that
// the test can click inside it and read its performance entries (a real host
// puts the card on an origin of its own).
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

const key = new URLSearchParams(location.search).get("key");
// ?theme=dark: the card's iframe gets color-scheme dark, which is what its
// prefers-color-scheme reflects (an embedded document follows the used
// color-scheme of its iframe element), as in a host drawn dark.
const theme = new URLSearchParams(location.search).get("theme");
// ?hostTheme=dark|light: the host context's theme only (the iframe keeps the
// page's color-scheme); ?vars=<JSON>: the host context's styles.variables.
const hostTheme = new URLSearchParams(location.search).get("hostTheme");
const vars = new URLSearchParams(location.search).get("vars");
window.opened = [];
// shown lists the ui:// resource of every card rendered, in order.
window.shown = [];

let client;
async function connect() {
  if (client) return client;
  const headers = key ? { Authorization: "Bearer " + key } : {};
  client = new Client({ name: "launchdir-test-host", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", location.href), { requestInit: { headers } }));
  return client;
}

// show calls tool with args as an assistant would, renders the tool's card
// with the result, and resolves to the result's structured content once the
// card has drawn it.
window.show = async (tool, args) => {
  const c = await connect();
  const { tools } = await c.listTools();
  const t = tools.find((x) => x.name === tool);
  const uri = t && t._meta && t._meta.ui && t._meta.ui.resourceUri;
  if (!uri) throw new Error(tool + " has no card");
  const res = await c.readResource({ uri });
  const html = res.contents[0].text;
  window.shown.push(uri);

  document.querySelector("iframe")?.remove();
  const iframe = document.createElement("iframe");
  iframe.title = tool;
  iframe.setAttribute("sandbox", "allow-scripts allow-same-origin");
  if (theme) iframe.style.colorScheme = theme;
  document.getElementById("cards").append(iframe);

  const bridge = new AppBridge(c, { name: "launchdir-test-host", version: "1.0.0" },
    { openLinks: {}, serverTools: {}, serverResources: {}, logging: {} },
    { hostContext: {
      theme: hostTheme || theme || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"),
      displayMode: "inline",
      ...(vars ? { styles: { variables: JSON.parse(vars) } } : {}),
    } });
  bridge.onopenlink = async ({ url }) => { window.opened.push(url); return {}; };
  bridge.onsizechange = ({ height }) => { if (height) iframe.style.height = Math.ceil(height) + "px"; };
  const ready = new Promise((resolve) => { bridge.oninitialized = resolve; });
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  iframe.srcdoc = html;
  await ready;

  await bridge.sendToolInput({ arguments: args });
  const result = await c.callTool({ name: tool, arguments: args });
  await bridge.sendToolResult(result);
  window.bridge = bridge;
  // Wait for the card to draw the result.
  const doc = () => iframe.contentDocument;
  for (let i = 0; i < 200 && /Loading…/.test(doc().getElementById("app").textContent); i++) {
    await new Promise((r) => setTimeout(r, 25));
  }
  if (result.isError) throw new Error(tool + ": " + JSON.stringify(result.content));
  return result.structuredContent;
};

// call calls a tool directly (what the model would do; not through a card).
window.call = async (tool, args) => (await (await connect()).callTool({ name: tool, arguments: args })).structuredContent;

// card is the document of the card on show; until waits (up to 15 s) for
// f() to be truthy and resolves to its value.
window.card = () => document.querySelector("iframe").contentDocument;
window.until = async (f, what) => {
  for (let i = 0; i < 600; i++) {
    const v = f();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("timed out waiting for " + (what || f.toString()));
};
// outside lists the card's resource loads that did not go to this origin.
window.outside = () => card().defaultView.performance.getEntriesByType("resource")
  .map((e) => e.name).filter((u) => new URL(u).origin !== location.origin);
// requests is how many resources the card loaded.
window.requests = () => card().defaultView.performance.getEntriesByType("resource").length;
