// Builds dist/cards.js, the one script of every MCP App card (docs/apps.md),
// from src/ with the pinned esbuild: `npm ci && npm run build` in web/apps.
// The output depends only on src/ and package-lock.json;
// TestAppsBundle_MatchesSources (web/apps, e2e tier) rebuilds it and fails
// when the committed file differs.
import * as esbuild from "esbuild";

// zod, which the ext-apps SDK validates messages with, re-exports its 60-odd
// message translations as z.locales; nothing in the cards or the SDK reads
// them (zod configures English from locales/en.js directly), but a bundler
// cannot drop a namespace re-export. This plugin gives that one module only
// English: the bundle is about 250 KB smaller.
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

await esbuild.build({
  entryPoints: ["src/cards.js"],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  charset: "utf8",
  legalComments: "eof",
  outfile: process.argv[2] || "dist/cards.js",
  plugins: [englishOnly],
  logLevel: "info",
});
