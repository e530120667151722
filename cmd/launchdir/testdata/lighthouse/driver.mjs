// TestLighthouse's driver (cmd/launchdir/lighthouse_test.go): one Node
// process and one headless Chromium for all of the test's Lighthouse runs,
// instead of the CLI's Node start-up, module loading and Chromium launch per
// run. Lighthouse's Node API takes the settings the CLI took as flags, with
// the same default (mobile, simulated throttling) configuration, and resets
// the tested origin's storage and the browser cache before each run
// (its default), so each run loads the page cold as a fresh browser did.
//
// Usage: node driver.mjs <lighthouse install dir> <chromium> <chrome flags JSON>
// Then one JSON request per line on stdin:
//   {"url": ..., "out": ..., "categories": [...], "skip": [...], "slowdown": 0}
// For each, it writes <out>.report.json and <out>.report.html and prints one
// line on stdout: {"ok": true} or {"error": "..."}. A request
// {"benchmark": true} measures the host instead: Lighthouse's own
// benchmarkIndex (the page function its runs report as
// environment.benchmarkIndex), evaluated in a blank tab of the same
// Chromium; the reply is {"ok": true, "benchmarkIndex": N}. It stops
// Chromium and exits when stdin closes.
import {createInterface} from 'node:readline';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';

const [dir, chromePath, flagsJSON] = process.argv.slice(2);
const mod = (p) => import(pathToFileURL(join(dir, 'node_modules', p)).href);
const {default: lighthouse} = await mod('lighthouse/core/index.js');
const chromeLauncher = await mod('chrome-launcher/dist/index.js');
const {pageFunctions} = await mod('lighthouse/core/lib/page-functions.js');
const {default: puppeteer} = await mod('puppeteer-core/lib/esm/puppeteer/puppeteer-core.js');

// benchmark evaluates Lighthouse's computeBenchmarkIndex in a new blank tab,
// as Lighthouse does at the start of a run (getBenchmarkIndex).
const benchmark = async () => {
  const browser = await puppeteer.connect({browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null});
  try {
    const page = await browser.newPage();
    try {
      return await page.evaluate(pageFunctions.computeBenchmarkIndex);
    } finally {
      await page.close();
    }
  } finally {
    await browser.disconnect();
  }
};

const chrome = await chromeLauncher.launch({chromePath, chromeFlags: JSON.parse(flagsJSON)});
let closing = false;
const stop = async () => {
  if (!closing) {
    closing = true;
    await chrome.kill();
  }
};
process.on('SIGTERM', async () => { await stop(); process.exit(1); });

const lines = createInterface({input: process.stdin, crlfDelay: Infinity});
for await (const line of lines) {
  if (!line.trim()) continue;
  let reply;
  try {
    const req = JSON.parse(line);
    if (req.benchmark) {
      process.stdout.write(JSON.stringify({ok: true, benchmarkIndex: await benchmark()}) + '\n');
      continue;
    }
    const flags = {
      port: chrome.port,
      output: ['json', 'html'],
      logLevel: 'error',
      onlyCategories: req.categories,
    };
    if (req.skip && req.skip.length) flags.skipAudits = req.skip;
    if (req.slowdown > 0) flags.throttling = {cpuSlowdownMultiplier: req.slowdown};
    const result = await lighthouse(req.url, flags);
    if (!result) throw new Error('lighthouse returned no result');
    const [json, html] = result.report;
    writeFileSync(req.out + '.report.json', json);
    writeFileSync(req.out + '.report.html', html);
    reply = {ok: true};
  } catch (err) {
    reply = {error: String(err && err.stack || err)};
  }
  process.stdout.write(JSON.stringify(reply) + '\n');
}
await stop();
