// Builds dist/cards.js, the one script of every MCP App card (docs/apps.md),
// from src/ with the pinned esbuild: `npm ci && npm run build` in web/apps.
// The output depends only on src/ and package-lock.json;
// TestAppsBundle_MatchesSources (tools, e2e tier) rebuilds it and fails
// when the committed file differs.
//
// Three plugins keep the bundle to what the cards run (docs/apps.md, "Size"):
// the official SDK's own code is untouched, only what is bundled of it.
import * as esbuild from "esbuild";
import { readFileSync } from "node:fs";

// zod, which the ext-apps SDK validates messages with, re-exports its 60-odd
// message translations as z.locales; nothing in the cards or the SDK reads
// them (zod configures English from locales/en.js directly), but a bundler
// cannot drop a namespace re-export. This plugin gives that one module only
// English.
const englishOnly = {
  name: "zod-english-only",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes("/zod/") ? { path: "zod-locales", namespace: "zod-english-only" } : undefined);
    build.onLoad({ filter: /.*/, namespace: "zod-english-only" }, () => ({
      contents: 'export { default as en } from "zod/v4/locales/en.js";',
      resolveDir: process.cwd(),
    }));
  },
};

// The ext-apps App imports zod as one value (`import { z } from "zod/v4"`),
// which keeps every export of zod (JSON Schema conversion, the compiler,
// every string format). This plugin gives ext-apps' modules a `z` with only
// the members they use, read from their source at build time (`z.object`,
// `z.literal`, ...), so a bundler drops the rest. A member the SDK uses and
// zod lacks fails the build; one it uses that the list missed would fail as
// soon as the card loads (its schemas are built at load), which
// TestApps_CardsInAHost would report.
const zodUsedOnly = {
  name: "zod-used-only",
  setup(build) {
    build.onResolve({ filter: /^zod\/v4$/ }, (args) =>
      args.namespace === "file" && args.importer.includes("/@modelcontextprotocol/ext-apps/")
        ? { path: args.importer, namespace: "zod-used-only" } : undefined);
    build.onLoad({ filter: /.*/, namespace: "zod-used-only" }, (args) => {
      const src = readFileSync(args.path, "utf8");
      const names = new Set();
      for (const [, alias] of src.matchAll(/import\s*\{\s*z\s+as\s+([\w$]+)\s*\}\s*from\s*"zod\/v4"/g)) {
        const member = new RegExp("(?<![\\w$.])" + alias.replace(/\$/g, "\\$") + "\\.([A-Za-z_$][\\w$]*)", "g");
        for (const [, n] of src.matchAll(member)) names.add(n);
      }
      if (names.size === 0) {
        return { contents: 'export { z } from "zod/v4";', resolveDir: process.cwd() };
      }
      const list = [...names].sort().join(", ");
      return { contents: `import { ${list} } from "zod/v4";\nexport const z = { ${list} };\n`, resolveDir: process.cwd() };
    });
  },
};

// @modelcontextprotocol/client and core (2.4.0) do not declare themselves
// free of side effects, so a bundler keeps every module of theirs it
// reaches (the OAuth providers, the JSON Schema validators) though the App
// uses only their Protocol class and message schemas. Their modules only
// define things; this plugin tells esbuild so (the package.json field
// "sideEffects": false they do not set).
const sdkPure = {
  name: "mcp-sdk-side-effect-free",
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === "sdk-pure" || args.namespace !== "file") return undefined;
      const sdk = /^@modelcontextprotocol\/(client|core)$/.test(args.path) ||
        (args.path.startsWith(".") && /\/@modelcontextprotocol\/(client|core)\//.test(args.importer));
      if (!sdk) return undefined;
      const r = await build.resolve(args.path, {
        kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: "sdk-pure",
      });
      return r.errors.length ? undefined : { path: r.path, namespace: r.namespace, sideEffects: false };
    });
  },
};

await esbuild.build({
  entryPoints: ["src/cards.js"],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  charset: "utf8",
  legalComments: "eof",
  outfile: process.argv[2] || "dist/cards.js",
  plugins: [englishOnly, zodUsedOnly, sdkPure],
  logLevel: "info",
});
