// Browser test: Debian's Chromium driven by playwright-core against a real
// `errdex serve` over this machine's Python standard library.
//   node tests/web/browser_test.mjs ERRDEX_BINARY SCREENSHOT_DIR
// Opens home, searches, opens an error page and finds every section in
// order, pastes a traceback produced by running python3 and lands on its
// throw site, and pages through the repository's sites. Screenshots go to
// SCREENSHOT_DIR. Exit 0 when all pass.
import { chromium } from 'playwright-core';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';

const [errdex, shots] = process.argv.slice(2);
if (!errdex || !shots) {
  console.error('usage: browser_test.mjs ERRDEX_BINARY SCREENSHOT_DIR');
  process.exit(2);
}
fs.mkdirSync(shots, { recursive: true });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'errdex-browser-'));
const db = `sqlite:${path.join(tmp, 'stdlib.db')}`;
let server, browser;

function log(...a) { console.log('[browser]', ...a); }

async function startServer() {
  server = spawn(errdex, ['serve', '--db', db, '--listen', '127.0.0.1:0', '--threads', '2',
                          '--access-log', path.join(tmp, 'access.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  server.stderr.on('data', d => { out += d; });
  return await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start: ' + out)), 60000);
    server.stdout.on('data', d => {
      out += d;
      const m = out.match(/serving (http:\/\/127\.0\.0\.1:\d+)\//);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    server.on('exit', code => { clearTimeout(timer); reject(new Error(`server exited ${code}: ${out}`)); });
  });
}

async function main() {
  // The same standard library the traceback comes from, as make run indexes it.
  const stdlib = execFileSync('python3', ['-c', 'import sysconfig; print(sysconfig.get_paths()["stdlib"])']).toString().trim();
  const version = execFileSync('python3', ['-c', 'import platform; print(platform.python_version())']).toString().trim();
  log('indexing', stdlib);
  execFileSync(errdex, ['scan', stdlib, '--repo', 'python/cpython', '--prefix', 'Lib', '--ref', `v${version}`,
                        '--db', db, '-q'], { stdio: ['ignore', 'ignore', 'inherit'] });

  // A real traceback: json.loads('') raises JSONDecodeError in json/decoder.py.
  let traceback = '';
  try {
    execFileSync('python3', ['-c', "import json; json.loads('')"], { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) { traceback = e.stderr.toString(); }
  assert.match(traceback, /JSONDecodeError: Expecting value/);
  const frames = [...traceback.matchAll(/File "([^"]+)", line (\d+)/g)];
  const last = frames[frames.length - 1];
  const throwFile = 'Lib/' + path.relative(stdlib, last[1]);
  const throwLine = Number(last[2]);
  log('traceback ends at', throwFile, throwLine);

  const base = await startServer();
  log('server at', base);
  const userDataDir = fs.mkdtempSync(path.join(tmp, 'chromium-'));
  // A persistent context is how playwright takes a fresh --user-data-dir.
  browser = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 900 },
  });
  const page = await browser.newPage();
  const problems = [];
  page.on('console', m => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', e => problems.push(String(e)));

  // Home: the repository with its count and commit, the search and paste boxes.
  await page.goto(base + '/');
  await page.screenshot({ path: path.join(shots, '1-home.png'), fullPage: true });
  const repoRow = page.locator('table.list tbody tr', { hasText: 'python/cpython' });
  await repoRow.waitFor();
  assert.ok(Number((await repoRow.locator('td.num').innerText()).trim()) > 1000, 'stdlib record count');
  assert.ok(await page.locator('textarea[name=text]').isVisible(), 'paste box');
  // The stylesheet is served and applied.
  const font = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
  assert.match(font, /system-ui|sans-serif/);

  // Search from the header box.
  await page.fill('header.top input[name=q]', 'Expecting value');
  await Promise.all([page.waitForURL(/\/search\?q=Expecting/), page.press('header.top input[name=q]', 'Enter')]);
  await page.screenshot({ path: path.join(shots, '2-search.png'), fullPage: true });
  const hits = page.locator('ol.results li.hit');
  assert.ok(await hits.count() >= 1, 'search hits');
  assert.match((await page.locator('ol.results mark').first().innerText()).toLowerCase(), /expecting|value/);

  // An error page from the results, every section in the seed's order.
  await Promise.all([page.waitForURL(/\/errors\/[0-9a-f]{16}\/[a-z0-9-]+$/), hits.first().locator('a').click()]);
  const headings = await page.locator('article.record h2').allInnerTexts();
  assert.deepEqual(headings, ['Error message', 'What it means', 'Source', 'Solutions', 'Example fix',
                              'Defensive patterns', 'Prevention', 'When it happens', 'Seen in tests', 'How you get here',
                              'Related errors',
                              'Also thrown at', 'History', 'Lint findings']);
  assert.match(await page.locator('p.crumbs').innerText(), /^python\/cpython · error · JSONDecodeError$/);
  assert.match(await page.locator('#source').innerText(), /Thrown at Lib\/json\/[a-z_]+\.py:\d+/);
  assert.match(await page.locator('a.github').innerText(), /^View on GitHub \(pinned to .+\)$/);
  assert.equal(await page.locator('tr.throw').count(), 1, 'one marked line');
  assert.ok(await page.locator('tr.throw .tok-keyword', { hasText: 'raise' }).count() >= 1, 'highlighted raise');
  const apiHref = await page.locator('footer.provenance a.api-link').getAttribute('href');
  assert.match(apiHref, /^\/api\/errors\/[0-9a-f]{16}$/);
  assert.match(await page.locator('footer.provenance a.report').getAttribute('href'), /^https:\/\/github\.com\/.+\/issues\/new\?title=.*[0-9a-f]{16}/);
  await page.screenshot({ path: path.join(shots, '3-error-page.png'), fullPage: true });
  // Its JSON link serves the same record.
  const apiRecord = await (await page.request.get(base + apiHref)).json();
  assert.equal(apiRecord.record.id, apiHref.split('/').pop());

  // Paste the real traceback on the home page and land on the throw site.
  await page.goto(base + '/');
  await page.fill('textarea[name=text]', traceback);
  await Promise.all([page.waitForURL(/\/match$/), page.click('form.paste button[type=submit]')]);
  await page.screenshot({ path: path.join(shots, '4-match.png'), fullPage: true });
  const best = page.locator('ol.candidates li.best');
  assert.match(await best.innerText(), new RegExp(`${throwFile.replace(/[.]/g, '\\.')}:${throwLine}`));
  await Promise.all([page.waitForURL(/\/errors\//), best.locator('a.site-link').click()]);
  assert.equal((await page.locator('code.location').innerText()).trim(), `${throwFile}:${throwLine}`);
  assert.equal((await page.locator('tr.throw td.ln').innerText()).trim(), String(throwLine));
  assert.match(await page.locator('tr.throw td.src').innerText(), /raise JSONDecodeError\("Expecting value"/);
  // The standard library's own test that raises it, from Lib/test read as evidence.
  assert.match(await page.locator('#seen-in-tests code.test-location').first().innerText(), /^Lib\/test\/test_json\/.+\.py:\d+$/);
  assert.ok(await page.locator('#seen-in-tests pre code').count() >= 1, 'the test\'s lines');
  await page.locator('#throw-line').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, '5-throw-site.png') });

  // The repository page, filtered.
  await page.goto(base + '/repos/python/cpython?filter=json%2Fdecoder&by=file');
  assert.ok(await page.locator('section.group h2', { hasText: 'Lib/json/decoder.py' }).count() === 1);
  await page.screenshot({ path: path.join(shots, '6-repo.png'), fullPage: true });
  // Past the first page of sites: its "Next page" link leads to the next ones.
  await page.goto(base + '/repos/python/cpython');
  const firstSite = await page.locator('ul.sites a').first().getAttribute('href');
  await Promise.all([page.waitForURL(/\/repos\/python\/cpython\?cursor=1500$/),
                     page.locator('a[rel=next]').first().click()]);
  assert.match(await page.locator('p.meta', { hasText: '1501–' }).innerText(), /^1501–3000 of \d+\./);
  assert.notEqual(await page.locator('ul.sites a').first().getAttribute('href'), firstSite, 'the next sites');

  assert.deepEqual(problems, [], 'no console errors (CSP violations and failed loads included)');

  // A page that says what went wrong.
  const nf = await page.goto(base + '/errors/ffffffffffffffff/nothing');
  assert.equal(nf.status(), 404);
  assert.match(await page.locator('.problem h1').innerText(), /404/);
  await page.screenshot({ path: path.join(shots, '7-not-found.png') });
  // A paste larger than the server reads: the problem page, not the API's JSON.
  await page.goto(base + '/');
  await page.fill('textarea[name=text]', 'ValueError: ' + 'x'.repeat(1200000));
  const [tooLarge] = await Promise.all([page.waitForResponse(r => r.url().endsWith('/match')),
                                        page.click('form.paste button[type=submit]')]);
  assert.equal(tooLarge.status(), 413);
  assert.match(await page.locator('.problem h1').innerText(), /413/);
  assert.match(await page.locator('.problem').innerText(), /paste less/);
  log('all checks passed; screenshots in', shots);
}

let code = 0;
try {
  await main();
} catch (e) {
  console.error('[browser] FAILED:', e);
  code = 1;
} finally {
  if (browser) await browser.close().catch(() => {});
  if (server && server.exitCode === null) server.kill('SIGTERM');
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(code);
