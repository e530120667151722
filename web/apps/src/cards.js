// The MCP App cards of launchdir (docs/apps.md). One bundle for every card:
// the document's body names its card (data-card). The card talks to the host
// only through the official App class of @modelcontextprotocol/ext-apps: it
// gets the tool's input and result, calls tools of the server through the
// host (update_draft, submit_draft, get_badges) and asks the host to open
// links. It loads nothing itself: no fetch, no outside script, font or image
// (the badge previews come from the site's own origin, declared in the
// resource's CSP metadata).
import { App, applyDocumentTheme, applyHostStyleVariables } from "@modelcontextprotocol/ext-apps";
import { renderListings, renderRankings } from "./rows.js";
import { renderDraft } from "./draft.js";
import { renderCheckout } from "./checkout.js";
import { renderBadges } from "./badges.js";
import { h, put, resultData, problemText } from "./dom.js";

const card = document.body.dataset.card;
const root = document.getElementById("app");
const app = new App({ name: "launchdir-" + card, version: "1.0.0" }, {});

const renderers = {
  listings: renderListings,
  rankings: renderRankings,
  draft: renderDraft,
  checkout: renderCheckout,
  badges: renderBadges,
};

let input = {};

// ctx is what a renderer may use: the tool's arguments, the bridge to the
// host, and a way to draw again (after a tool call through the host).
const ctx = {
  app,
  get input() { return input; },
  show(data) { draw(data); },
  // call runs a server tool through the host; it resolves to the result's
  // data, or throws an Error whose message is the problem's detail.
  async call(name, args) {
    const res = await app.callServerTool({ name, arguments: args });
    if (res.isError) throw new Error(problemText(res));
    return resultData(res);
  },
  // open asks the host to open url in the browser (the iframe cannot).
  async open(url) {
    const res = await app.openLink({ url });
    if (res && res.isError) throw new Error("The assistant did not open the link.");
  },
};

function draw(data) {
  const render = renderers[card];
  put(root, render ? render(data, ctx) : h("p", {}, "Unknown card."));
}

// siteFromHost: the site's colour variables a card takes from the host's
// style variables (McpUiStyles) when the host gives them, so a card sits in
// the conversation's own colours. The accent and the PAID colours stay the
// site's (the brand, and PAID must stand out on any host).
const siteFromHost = {
  "--bg": "--color-background-primary",
  "--card": "--color-background-secondary",
  "--fg": "--color-text-primary",
  "--muted": "--color-text-secondary",
  "--line": "--color-border-primary",
};

// applyHost applies the host context's theme (data-theme on the root, which
// card.css's theme rules follow, and color-scheme for the form controls) and
// its style variables. Without a theme the card follows
// prefers-color-scheme, as the site does. Fonts: the host's --font-sans
// family when given; its font CSS (css.fonts, which may @import from other
// origins) is not loaded, as a card loads nothing from outside.
function applyHost(hc) {
  if (!hc) return;
  if (hc.theme === "light" || hc.theme === "dark") applyDocumentTheme(hc.theme);
  const vars = hc.styles && hc.styles.variables;
  if (!vars) return;
  applyHostStyleVariables(vars);
  const root = document.documentElement.style;
  for (const [site, host] of Object.entries(siteFromHost)) {
    if (vars[host]) root.setProperty(site, "var(" + host + ")");
  }
  if (vars["--font-sans"]) document.body.style.fontFamily = "var(--font-sans)";
}

app.onhostcontextchanged = () => applyHost(app.getHostContext());
app.ontoolinput = (p) => { input = (p && p.arguments) || {}; };
app.ontoolresult = (res) => {
  if (res.isError) {
    root.replaceChildren(h("p", { class: "error", role: "alert" }, problemText(res)));
    return;
  }
  draw(resultData(res));
};

app.connect().then(() => applyHost(app.getHostContext())).catch((err) => {
  root.replaceChildren(h("p", { class: "error", role: "alert" }, "Could not reach the assistant: " + err.message));
});
