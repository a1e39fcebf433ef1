#!/usr/bin/env node
// The browser test harness (docs/web.md, "Browser tests"): serves a folder
// with `pzc serve` on a free port, opens a page of it in headless Chromium
// (the system's, driven by playwright-core), runs a check module against
// it, writes a screenshot, and exits non-zero on any failed check, page
// error, console error or failed request.
//
//   node tests/web/browser.mjs [--root DIR] [--page PATH] [--check MODULE]
//                              [--screenshot FILE] [--pzc PZC] [--timeout MS]
//
//   --root DIR         the folder pzc serve serves (default tests/web/fixtures)
//   --page PATH        the page opened, relative to the root's URL (default: the root, index.html)
//   --check MODULE     its default export is awaited as check({page, url, expect, log});
//                      `expect(condition, what)` records a failure without stopping,
//                      a throw fails the test; without --check the page must just load cleanly
//   --screenshot FILE  where the screenshot goes (default $PZ_WEB_SCREENSHOT, else
//                      build/web-artefacts/<check or page name>.png in the source tree)
//   --pzc PZC          the pzc binary (default $PZC, else build/compiler/driver/pzc)
//   --timeout MS       the page's default timeout for waits (default 30000)
//
// Exit codes: 0 passed, 1 failed, 2 usage, 77 skipped (no Chromium at
// $PZ_CHROMIUM or /usr/bin/chromium, or no playwright-core: run
// `npm ci --prefix tests/web`, which scripts/install-deps.sh does).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { basename, dirname, extname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const source = resolve(here, '..', '..');
export const SKIP = 77;

function log(...what) {
  console.log('[browser]', ...what);
}

// `pzc serve --port 0`: resolves once it prints its URL (the port it took).
export function startServer(pzc, root) {
  const child = spawn(pzc, ['serve', '--port', '0', '--root', root], { stdio: ['ignore', 'pipe', 'pipe'] });
  process.on('exit', () => child.kill('SIGTERM'));  // never left behind, whatever ends the harness
  createInterface({ input: child.stderr }).on('line', (line) => console.log('[serve]', line));
  return new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error('pzc serve printed no URL within 10 s')), 10000);
    child.on('error', (e) => reject(new Error(`cannot run ${pzc}: ${e.message}`)));
    child.on('exit', (code) => reject(new Error(`pzc serve exited (${code}) before it served`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      const url = line.match(/ at (http:\/\/\S+)$/)?.[1];
      if (!url) return reject(new Error(`unexpected first line from pzc serve: ${line}`));
      resolveUrl({
        url,
        // SIGTERM, and pzc serve's exit code (0 when it stopped cleanly).
        stop: () => new Promise((done) => {
          child.removeAllListeners('exit');
          child.once('exit', (code) => done(code));
          child.kill('SIGTERM');
        }),
      });
    });
  });
}

// One page test. Returns the exit code (0, 1 or SKIP) and logs every failure.
export async function runBrowserTest(options) {
  const chromiumPath = process.env.PZ_CHROMIUM || '/usr/bin/chromium';
  if (!existsSync(chromiumPath)) {
    log(`skipped: no Chromium at ${chromiumPath} (apt-get install chromium, or set PZ_CHROMIUM)`);
    return SKIP;
  }
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch {
    log(`skipped: playwright-core is not installed (npm ci --prefix ${here})`);
    return SKIP;
  }
  const failures = [];
  const fail = (what) => {
    failures.push(what);
    log(`FAIL ${what}`);
  };
  const expect = (condition, what) => (condition ? log(`ok   ${what}`) : fail(what));

  const started = Date.now();
  const server = await startServer(options.pzc, options.root);
  const url = new URL(options.page, server.url).href;
  let browser;
  try {
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      // --no-sandbox: the tests run as root, where Chromium's sandbox refuses
      // to start; --disable-dev-shm-usage: containers' /dev/shm is small.
      args: ['--no-sandbox', '--disable-dev-shm-usage'],
    });
    const page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
    page.setDefaultTimeout(options.timeout);
    page.on('pageerror', (e) => fail(`page error: ${e.message}`));
    page.on('console', (m) => {
      // Chromium asks for /favicon.ico by itself when a page names no icon:
      // its 404 is no fault of the page.
      if (m.type() === 'error' && m.location().url?.endsWith('/favicon.ico')) log(`console.error (ignored): ${m.text()}`);
      else if (m.type() === 'error') fail(`console error: ${m.text()} (${m.location().url || 'no location'})`);
      else log(`console.${m.type()}: ${m.text()}`);
    });
    page.on('requestfailed', (r) => fail(`request failed: ${r.url()} (${r.failure()?.errorText})`));
    page.on('response', (r) => {
      if (r.status() >= 400) fail(`HTTP ${r.status()} for ${r.url()}`);
    });
    log(`open ${url}`);
    const response = await page.goto(url, { waitUntil: 'load' });
    expect(response?.ok(), `the page loads (HTTP ${response?.status()})`);
    if (options.check) {
      const check = (await import(pathToFileURL(resolve(options.check)).href)).default;
      try {
        await check({ page, url, expect, log });
      } catch (e) {
        fail(`check threw: ${e.stack || e}`);
      }
    }
    mkdirSync(dirname(options.screenshot), { recursive: true });
    await page.screenshot({ path: options.screenshot, fullPage: true });
    log(`screenshot ${options.screenshot}`);
  } finally {
    await browser?.close();
    const code = await server.stop();
    if (code !== 0) fail(`pzc serve exited with ${code} on SIGTERM`);
  }
  log(`${failures.length ? `${failures.length} failure(s)` : 'passed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return failures.length ? 1 : 0;
}

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      root: { type: 'string', default: resolve(here, 'fixtures') },
      page: { type: 'string', default: '' },
      check: { type: 'string' },
      screenshot: { type: 'string' },
      pzc: { type: 'string', default: process.env.PZC || resolve(source, 'build/compiler/driver/pzc') },
      timeout: { type: 'string', default: '30000' },
    },
  });
  const name = values.check ? basename(values.check, extname(values.check)) : basename(values.page || values.root, extname(values.page || ''));
  return {
    ...values,
    root: resolve(values.root),
    pzc: resolve(values.pzc),
    timeout: Number(values.timeout),
    screenshot: resolve(values.screenshot || process.env.PZ_WEB_SCREENSHOT || resolve(source, 'build/web-artefacts', `${name || 'page'}.png`)),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (e) {
    console.error(`browser.mjs: ${e.message}`);
    process.exit(2);
  }
  runBrowserTest(options).then(
    (code) => process.exit(code),
    (e) => {
      log(`FAIL ${e.stack || e}`);
      process.exit(1);
    },
  );
}
