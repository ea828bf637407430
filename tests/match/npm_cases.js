// Real errors from real npm packages, for the JavaScript match accuracy test.
//
// Usage: node npm_cases.js NODE_MODULES
//
// Each case below calls an unmodified package installed from npm (pinned as
// devDependencies in package.json) with a bad input, in a fresh `node -e`
// process, and takes node's own stderr for the uncaught error: the header
// above it, the message and the stack. A case is kept when the innermost
// frame of the stack (V8 prints it first) is inside the package. The throw
// statement is the true place: Node names it in the `file:line` header above
// an uncaught error (where the error was made, the first frame, may be a
// helper that returns it: js-yaml's generateError); without a header, the
// first frame. Its file is relative to the package folder.
// Prints one JSON line per kept case: {pkg, file, line, stack, message}.
// Cases whose error comes from elsewhere (node itself, another package)
// are reported on stderr and left out.
'use strict';
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const modules = path.resolve(process.argv[2] || 'node_modules');

// [package, code run with `pkg` bound to require(package)]
const cases = [
  ['semver', "new pkg.SemVer('1.2')"],
  ['semver', "new pkg.SemVer(null)"],
  ['semver', "new pkg.SemVer('1.2.3', { loose: false }).inc('nope')"],
  ['semver', "new pkg.SemVer('x'.repeat(300))"],
  ['semver', "new pkg.Range('>=1.0.0 <<<< 2')"],
  ['semver', "pkg.inc('1.2.3', 'pre', 'beta', 'x')"],
  ['semver', "new pkg.Comparator('~~ nope')"],
  ['semver', "new pkg.Comparator('>1.0.0').intersects(null)"],
  ['semver', "pkg.cmp('1.0.0', '~~', '2.0.0')"],
  ['semver', "new pkg.SemVer('1.2.3').compare(null)"],
  ['semver', "new pkg.SemVer('999999999999999999.0.0')"],
  ['uuid', "pkg.parse('not-a-uuid')"],
  ['uuid', "pkg.v5('name', 'not-a-namespace')"],
  ['uuid', "pkg.stringify(new Uint8Array(16).fill(300).map(()=>0xff).fill(0x00).map((_, i) => i === 6 ? 0xff : 0))"],
  ['uuid', "pkg.v4({}, new Uint8Array(4), 10)"],
  ['uuid', "pkg.v7({}, new Uint8Array(4), 10)"],
  ['uuid', "pkg.v1({}, new Uint8Array(4), 10)"],
  ['uuid', "pkg.v6({}, new Uint8Array(4), 10)"],
  ['ms', "pkg(undefined)"],
  ['ms', "pkg('')"],
  ['ms', "pkg({})"],
  ['cookie', "pkg.serialize('bad name', 'v')"],
  ['cookie', "pkg.serialize('n', 'v', { domain: 'bad domain' })"],
  ['cookie', "pkg.serialize('n', 'v', { path: 'bad;path' })"],
  ['cookie', "pkg.serialize('n', 'v', { maxAge: 1.5 })"],
  ['cookie', "pkg.serialize('n', 'v', { expires: 'tomorrow' })"],
  ['cookie', "pkg.serialize('n', 'v', { priority: 'urgent' })"],
  ['cookie', "pkg.serialize('n', 'v', { sameSite: 'sideways' })"],
  ['cookie', "pkg.serialize('n', 'v', { encode: (x) => 'a b' })"],
  ['cookie', "pkg.serialize('n', 'v', { partitioned: true, encode: 3 })"],
  ['content-type', "pkg.parse('')"],
  ['content-type', "pkg.parse('text/plain; charset')"],
  ['content-type', "pkg.parse('bad type')"],
  ['content-type', "pkg.format({ type: 'bad type' })"],
  ['content-type', "pkg.format({})"],
  ['content-type', "pkg.format({ type: 'text/plain', parameters: { 'bad key': 'x' } })"],
  ['content-type', "pkg.parse(3)"],
  ['path-to-regexp', "pkg.pathToRegexp('/:')"],
  ['path-to-regexp', "pkg.pathToRegexp('/user(s')"],
  ['path-to-regexp', "pkg.pathToRegexp('/a{b')"],
  ['path-to-regexp', "pkg.compile('/:id')({})"],
  ['path-to-regexp', "pkg.compile('/*path')({ path: 'x' })"],
  ['path-to-regexp', "pkg.parse('/\\\\')"],
  ['path-to-regexp', "pkg.pathToRegexp('/:a?')"],
  ['statuses', "pkg(999)"],
  ['statuses', "pkg('no such status')"],
  ['statuses', "pkg(1.5)"],
  ['iconv-lite', "pkg.decode(Buffer.from('x'), 'no-such-encoding')"],
  ['iconv-lite', "pkg.encode('x', 'klingon')"],
  ['js-yaml', "pkg.load('a: b: c')"],
  ['js-yaml', "pkg.load('{ a: 1')"],
  ['js-yaml', "pkg.load('- a\\n b: c')"],
  ['js-yaml', "pkg.load('a: !!nope x')"],
  ['js-yaml', "pkg.load('a: 1\\na: 2')"],
  ['js-yaml', "pkg.load('%YAML 2.0\\n---\\na')"],
  ['js-yaml', "pkg.load('&a [*b]')"],
  ['js-yaml', "pkg.load('\"unterminated')"],
  ['js-yaml', "pkg.dump({ f() {} })"],
  ['js-yaml', "pkg.load('a:\\t- b')"],
  ['validator', "pkg.isEmail(3)"],
  ['validator', "pkg.isURL(null)"],
  ['validator', "pkg.isUUID('x', 99)"],
  ['validator', "pkg.isMobilePhone('123', 'xx-XX')"],
  ['validator', "pkg.isPostalCode('1', 'XX')"],
  ['validator', "pkg.isAlpha('a', 'xx-XX')"],
  ['validator', "pkg.isAlphanumeric('a', 'xx-XX')"],
  ['validator', "pkg.isIdentityCard('1', 'XX')"],
  ['validator', "pkg.isPassportNumber('1', 'XX')"],
  ['validator', "pkg.isTaxID('1', 'xx-XX')"],
  ['validator', "pkg.isLicensePlate('1', 'xx-XX')"],
  ['validator', "pkg.isVAT('1', 'XX')"],
  ['validator', "pkg.isIBAN('1', { whitelist: 'x' })"],
  ['validator', "pkg.isFloat('1', { locale: 'xx-XX' })"],
  ['validator', "pkg.isDecimal('1', { locale: 'xx-XX' })"],
  ['validator', "pkg.isHash('x', 'nohash')"],
  ['validator', "pkg.isISO31661Alpha2(undefined)"],
  ['bytes', "pkg.format(1, { unit: 3 }).x.y"],
  ['qs', "pkg.parse('a=b', { decoder: 3 })"],
  ['qs', "pkg.parse('a=b', { charset: 'latin2' })"],
  ['qs', "pkg.stringify({ a: 1 }, { encoder: 3 })"],
  ['qs', "pkg.stringify({ a: 1 }, { format: 'RFC0' })"],
  ['qs', "pkg.parse('a=b', { throwOnLimitExceeded: 3 })"],
  ['qs', "pkg.parse('a=b&c=d', { parameterLimit: 1, throwOnLimitExceeded: true })"],
  ['qs', "pkg.parse('a[b][c]=d', { depth: 1, strictDepth: true })"],
  ['qs', "pkg.stringify({ a: 1 }, { charset: 'latin2' })"],
  ['qs', "pkg.stringify({ a: [1] }, { arrayFormat: 'nope' })"],
  ['qs', "pkg.parse('a=b', { duplicates: 'nope' })"],
  ['qs', "pkg.stringify({ a: 1 }, { allowEmptyArrays: 3 })"],
  ['qs', "pkg.parse('a=b', { allowEmptyArrays: 3 })"],
  ['qs', "pkg.stringify({ a: 1 }, { encodeDotInKeys: 3 })"],
  ['qs', "pkg.parse('a=b', { decodeDotInKeys: 3 })"],
  ['qs', "pkg.stringify({ a: 1 }, { commaRoundTrip: 3, arrayFormat: 'comma', filter: 3, encodeValuesOnly: 3, serializeDate: 3, skipNulls: 3, strictNullHandling: 3, sort: 3, allowDots: 3, addQueryPrefix: 3, delimiter: 3, encode: 3, indices: 3 }).x.y"],
  ['minimatch', "pkg.minimatch(3, 'a')"],
  ['minimatch', "pkg.minimatch('a', 'x'.repeat(70000))"],
  ['minimatch', "new pkg.Minimatch(null)"],
];

const out = [];
for (const [pkg, code] of cases) {
  const script = `const pkg = require(${JSON.stringify(path.join(modules, pkg))});\n${code}\n`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30000 });
  const stderr = r.stderr || '';
  // The innermost user frame: the first `at` line not inside node itself.
  const frame = stderr.split('\n').map((l) => l.match(/^\s+at (?:.*? \()?(.*?):(\d+):\d+\)?$/)).find((m) => m && !m[1].startsWith('node:'));
  const root = path.join(modules, pkg) + path.sep;
  const header = stderr.match(/^(\/.*?):(\d+)\n/);
  const place = header && header[1].startsWith(root) ? header : frame;
  // Only errors a statement of the package throws or hands on: a TypeError
  // V8 raises itself (`x.split is not a function`) has no site.
  const source = place && place[1].startsWith(root) ? (fs.readFileSync(place[1], 'utf8').split('\n')[place[2] - 1] || '') : '';
  const thrown = /\bthrow\b|reject\(|\bnew \w*(Error|Exception)\b/.test(source);
  if (r.status === 0 || !frame || !frame[1].startsWith(root) || !place[1].startsWith(root) || !thrown) {
    process.stderr.write(`left out ${pkg}: ${code}: ${r.status === 0 ? 'no error' : (stderr.split('\n').find((l) => /Error|Exception/.test(l)) || 'no frame').trim()}\n`);
    continue;
  }
  // Node prints the error thrown uncaught as `file:line`, source, caret,
  // blank, then the error; the stack starts at the error's line.
  const lines = stderr.split('\n');
  const at = lines.findIndex((l) => /^\s+at /.test(l));
  // The error's line follows the header's caret and a blank line.
  const start = header ? lines.findIndex((l) => l.trim() === '') + 1 : 0;
  out.push({
    pkg,
    code,
    file: path.relative(path.join(modules, pkg), place[1]).split(path.sep).join('/'),
    line: Number(place[2]),
    stack: stderr.replace(/\nNode\.js v[\d.]+\s*$/, '\n'),
    message: lines.slice(start, at).join('\n'),
  });
}
for (const c of out) process.stdout.write(JSON.stringify(c) + '\n');
process.stderr.write(`${out.length} of ${cases.length} cases kept\n`);
