// Real errors from real npm packages, for the JavaScript match accuracy test.
//
// Usage: node npm_cases.js NODE_MODULES [--held-out | --held-out2 | --held-out3 | --held-out4 | --held-out5 | --held-out6]
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
const { SourceMap } = require('module');
const { fileURLToPath } = require('url');

const args = process.argv.slice(2).filter((a) => !a.startsWith('--held-out'));
const heldOut = process.argv.includes('--held-out');
const heldOut2 = process.argv.includes('--held-out2');
const heldOut3 = process.argv.includes('--held-out3');
const heldOut4 = process.argv.includes('--held-out4');
const heldOut5 = process.argv.includes('--held-out5');
const heldOut6 = process.argv.includes('--held-out6');
const modules = path.resolve(args[0] || 'node_modules');

// [package, code run with `pkg` bound to require(package)]
const tuned = [
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

// Held out: packages errdex was never tuned on (added 2026-12-06, measured
// before any rule was changed for them), for an honest figure on code
// never seen. Their errors go through the same harness.
const held = [
  ['ajv', "new (pkg.default || pkg)().compile({ type: 'nope' })"],
  ['ajv', "new (pkg.default || pkg)().compile({ $ref: '#/definitions/missing' })"],
  ['ajv', "new (pkg.default || pkg)().addSchema({ $id: 'a' }).addSchema({ $id: 'a' })"],
  ['ajv', "new (pkg.default || pkg)().compile({ type: 'object', properties: 5 })"],
  ['ajv', "new (pkg.default || pkg)().addKeyword('type')"],
  ['ajv', "new (pkg.default || pkg)().getSchema('nope') ; new (pkg.default || pkg)().validate('nope', 1)"],
  ['ajv', "new (pkg.default || pkg)({ strict: true }).compile({ foo: 1 })"],
  ['yaml', "pkg.parse('a: [1, 2')"],
  ['yaml', "pkg.parse('a: 1\\na: 2')"],
  ['yaml', "pkg.parse('a: b: c')"],
  ['yaml', "pkg.parse('- a\\nb: c')"],
  ['yaml', "pkg.parse('*nope')"],
  ['yaml', "pkg.parse('---\\n---', { })"],
  ['joi', "pkg.string().validate(5) ; pkg.assert(5, pkg.string())"],
  ['joi', "pkg.attempt({ a: 1 }, pkg.object({ a: pkg.string() }))"],
  ['joi', "pkg.compile(Symbol('x'))"],
  ['luxon', "pkg.Duration.fromObject({ nope: 1 })"],
  ['luxon', "pkg.Duration.fromObject(5)"],
  ['luxon', "pkg.Settings.throwOnInvalid = true; pkg.DateTime.fromISO('nope')"],
  ['luxon', "pkg.DateTime.fromObject({ year: 2020, weekYear: 2020 })"],
  ['luxon', "pkg.Interval.fromDateTimes(pkg.DateTime.now(), pkg.DateTime.now()).splitBy({ days: 0 }) ; pkg.DateTime.now().startOf('nope')"],
  ['luxon', "pkg.DateTime.fromFormat('x', 'yyyy', { }) ; pkg.DateTime.fromObject({}, { zone: 5 }).toISO() ; pkg.Info.features(); pkg.DateTime.now().set({ nope: 1 })"],
  ['handlebars', "pkg.compile('{{#if}}{{/if}}')()"],
  ['handlebars', "pkg.compile('{{#each a}}{{/with}}')()"],
  ['handlebars', "pkg.compile(5)"],
  ['handlebars', "pkg.compile('{{> nope}}')({})"],
  ['handlebars', "pkg.compile('{{nope a}}', { strict: true })({})"],
  ['handlebars', "pkg.compile('{{a.b}}', { strict: true })({})"],
  ['handlebars', "pkg.registerPartial('x', undefined)"],
  ['acorn', "pkg.parse('let = ;', { ecmaVersion: 2020 })"],
  ['acorn', "pkg.parse('return 1', { ecmaVersion: 2020 })"],
  ['acorn', "pkg.parse('a b', { ecmaVersion: 2020 })"],
  ['acorn', "pkg.parse('\"abc', { ecmaVersion: 2020 })"],
  ['acorn', "pkg.parse('class A { constructor(){} constructor(){} }', { ecmaVersion: 2020 })"],
  ['acorn', "pkg.parse('x', { ecmaVersion: 2020, sourceType: 'nope', allowReserved: 'x' }) ; pkg.parse('import x from \"y\"', { ecmaVersion: 2020 })"],
  ['postcss', "pkg.parse('a { color: red')"],
  ['postcss', "pkg.parse('a { color: red; } }')"],
  ['postcss', "pkg.parse('a { \"unclosed }')"],
  ['postcss', "pkg([5]).process('a{}').css"],
  ['postcss', "pkg.parse('@media { a { b: c }')"],
  ['superstruct', "pkg.assert(5, pkg.string())"],
  ['superstruct', "pkg.create('x', pkg.number())"],
  ['superstruct', "pkg.assert({ a: 1 }, pkg.object({ a: pkg.string() }))"],
  ['yup', "pkg.string().validateSync(5, { strict: true })"],
  ['yup', "pkg.object({ a: pkg.number().required() }).validateSync({})"],
  ['yup', "pkg.string().email().validateSync('nope')"],
  ['yup', "pkg.object().shape({ a: pkg.string() }).pick(['b']).validateSync(5)"],
  ['yup', "pkg.ref(5)"],
  ['bignumber.js', "pkg.BigNumber.config({ DECIMAL_PLACES: -1 })"],
  ['bignumber.js', "pkg.BigNumber.config({ DEBUG: true }); new pkg.BigNumber('nope')"],
  ['bignumber.js', "new pkg.BigNumber(1).toString(99)"],
  ['bignumber.js', "pkg.BigNumber.config({ ROUNDING_MODE: 9 })"],
  ['bignumber.js', "pkg.BigNumber.config({ ALPHABET: 'a' })"],
  ['decimal.js', "new pkg.Decimal('nope')"],
  ['decimal.js', "pkg.Decimal.set({ precision: 0 })"],
  ['decimal.js', "new pkg.Decimal(1).toFixed(-1)"],
  ['decimal.js', "pkg.Decimal.set(5)"],
  ['decimal.js', "new pkg.Decimal(1).toNearest(1, 9)"],
  ['decimal.js', "pkg.Decimal.set({ crypto: true }) ; pkg.Decimal.set({ rounding: 'x' })"],
  ['picomatch', "pkg(5)"],
  ['picomatch', "pkg('')"],
  ['picomatch', "pkg.makeRe('a'.repeat(70000))"],
  ['picomatch', "pkg.parse(5)"],
];
// A second held-out set (added 2026-12-06, session 20): nine packages more,
// written and measured before any rule was changed for them.
const held2 = [
  ['json5', "pkg.parse('{a:}')"],
  ['json5', "pkg.parse('')"],
  ['json5', "pkg.parse('[1,,2]')"],
  ['json5', "pkg.parse('{a: 1} x')"],
  ['json5', "pkg.parse('\"abc')"],
  ['ipaddr.js', "pkg.IPv4.parse('300.1.1.1')"],
  ['ipaddr.js', "pkg.parseCIDR('1.2.3.4/99')"],
  ['ipaddr.js', "pkg.IPv4.subnetMaskFromPrefixLength(40)"],
  ['ipaddr.js', "new pkg.IPv4([1, 2, 3])"],
  ['ipaddr.js', "pkg.IPv6.parse('1::2::3')"],
  ['ipaddr.js', "pkg.parse('1.2.3.4').match(pkg.parse('::1'), 8)"],
  ['big.js', "new pkg('abc')"],
  ['big.js', "new pkg(1).div(0)"],
  ['big.js', "new pkg(1).round(1, 7)"],
  ['big.js', "new pkg(-1).sqrt()"],
  ['big.js', "new pkg(1).pow(1.5)"],
  ['big.js', "new pkg(1).toFixed(-1)"],
  ['fraction.js', "new pkg('abc')"],
  ['fraction.js', "new pkg(1, 0)"],
  ['fraction.js', "new pkg(1).div(0)"],
  ['fraction.js', "new pkg(1).pow('x')"],
  ['cron-parser', "(pkg.CronExpressionParser || {}).parse ? pkg.CronExpressionParser.parse('bad cron') : pkg.parseExpression('bad cron')"],
  ['cron-parser', "(pkg.CronExpressionParser || {}).parse ? pkg.CronExpressionParser.parse('61 * * * *') : pkg.parseExpression('61 * * * *')"],
  ['cron-parser', "(pkg.CronExpressionParser || {}).parse ? pkg.CronExpressionParser.parse('* * * * * * * *') : pkg.parseExpression('* * * * * * * *')"],
  ['cron-parser', "(pkg.CronExpressionParser || {}).parse ? pkg.CronExpressionParser.parse('*/0 * * * *') : pkg.parseExpression('*/0 * * * *')"],
  ['immutable', "pkg.Range(1, 10, 0)"],
  ['immutable', "pkg.Map({ a: 1 }).updateIn(['a', 'b'], (x) => x)"],
  ['immutable', "pkg.Record(5)"],
  ['date-fns', "pkg.format(new Date(NaN), 'yyyy')"],
  ['date-fns', "pkg.format(new Date(), 'yyyy-MM-dd j')"],
  ['date-fns', "pkg.parse('x', 'YYYY', new Date())"],
  ['date-fns', "pkg.format(new Date(), 'YYYY')"],
  ['date-fns', "pkg.addDays(new Date(), 1, { in: 5 }) ; pkg.formatISO(new Date(NaN))"],
  ['@iarna/toml', "pkg.parse('a = ')"],
  ['@iarna/toml', "pkg.parse('a = 1\\na = 2')"],
  ['@iarna/toml', "pkg.parse('[a\\nb = 1')"],
  ['@iarna/toml', "pkg.stringify(5)"],
  ['fill-range', "pkg(1, 10, 'x', { strictRanges: true })"],
];
// A third held-out set (added 2026-12-07, branch npm3): fifteen packages no
// set used, nor any scanner round read, of other kinds (TOML and XML parsers,
// template engines, argument parsers, schema validators, number and duration
// formatters, caches and data structures, HTTP header helpers; CommonJS,
// ESM-only and compiled TypeScript, some shipped minified), written before
// errdex was run on them. Each package is loaded as an application loads it,
// by its name through its package.json `exports` (`require('cac')` finds
// cac's ESM-only dist/index.js, which a folder path does not); a case marked
// 'esm' runs as an ES module (`await import(name)`), whose stack names its
// files as file:// URLs.
const held3 = [
  ['smol-toml', "pkg.parse('a = ')"],
  ['smol-toml', "pkg.parse('a = 1\\na = 2')"],
  ['smol-toml', "pkg.parse('[a\\nb = 1')"],
  ['smol-toml', "pkg.parse('a = \"unterminated')"],
  ['smol-toml', "pkg.parse('a = 1979-13-01')"],
  ['smol-toml', "pkg.parse('a = [1, 2')"],
  ['smol-toml', "pkg.parse('a = { b = 1, }')"],
  ['smol-toml', "pkg.parse('a = 0x')"],
  ['smol-toml', "pkg.parse('a = tru')"],
  ['smol-toml', "pkg.parse('= 1')"],
  ['smol-toml', "pkg.parse('a = 1 b = 2')"],
  ['smol-toml', "pkg.parse('[[a]]\\n[a]')"],
  ['smol-toml', "pkg.stringify(5)"],
  ['smol-toml', "pkg.stringify({ a: () => 1 })"],
  ['smol-toml', "pkg.parse('a = \"\\\\q\"')", 'esm'],
  ['mustache', "pkg.render('{{#a}}', {})"],
  ['mustache', "pkg.render('{{/a}}', {})"],
  ['mustache', "pkg.render('{{#a}}{{/b}}', {})"],
  ['mustache', "pkg.render('{{a', {})"],
  ['mustache', "pkg.render('{{=<% %>=}}<% a', {})"],
  ['mustache', "pkg.parse('{{= x =}}')"],
  ['mustache', "pkg.render(5, {})"],
  ['mustache', "pkg.render('{{a}}', {}, {}, ['{{'])"],
  ['mustache', "pkg.render('{{^a}}', { a: 1 })"],
  ['mustache', "pkg.default.render('{{#list}}{{/lsit}}', {})", 'esm'],
  ['ejs', "pkg.render('<% if (x) { %>', {})"],
  ['ejs', "pkg.render('<%= a %>', {})"],
  ['ejs', "pkg.render('<% a', {})"],
  ['ejs', "pkg.render('<%- include(\"x\") %>', {})"],
  ['ejs', "pkg.compile('x', { localsName: '1bad' })"],
  ['ejs', "pkg.compile('x', { outputFunctionName: 'a b' })"],
  ['ejs', "pkg.compile('x', { destructuredLocals: ['a b'] })"],
  ['ejs', "pkg.render('<%= user.name %>', { user: null })"],
  ['ejs', "pkg.render('x', {}, { async: 5, client: true, escapeFunction: 5 })"],
  ['ejs', "pkg.render('<%- include(\"/no/such/partial\") %>', {}, { filename: '/tmp/x.ejs' })"],
  ['ejs', "pkg.render('<%= a %>', {})", 'esm'],
  ['arg', "pkg({ '--port': Number }, { argv: ['--nope'] })"],
  ['arg', "pkg({ '--port': Number }, { argv: ['--port'] })"],
  ['arg', "pkg({ port: Number }, { argv: [] })"],
  ['arg', "pkg({ '--port': 'nope' }, { argv: ['--port', '3'] })"],
  ['arg', "pkg({ '--port': [Number, String] }, { argv: [] })"],
  ['arg', "pkg({ '-': Boolean }, { argv: [] })"],
  ['arg', "pkg({ '--verbose': Boolean, '-v': '--verbose' }, { argv: ['-vx'] })"],
  ['arg', "pkg()"],
  ['arg', "pkg({ '': Boolean })"],
  ['arg', "pkg({ '--name': String }, { argv: ['--name', '--other'] })"],
  ['cac', "const cli = pkg.cac('app'); cli.command('build <dir>', 'Build').action(() => {}); cli.parse(['node', 'app', 'build', 'src', '--nope'])"],
  ['cac', "const cli = pkg.cac('app'); cli.command('build <dir>', 'Build').action(() => {}); cli.parse(['node', 'app', 'build'])"],
  ['cac', "const cli = pkg.cac('app'); cli.command('build', 'Build').option('--out <dir>', 'Output').action(() => {}); cli.parse(['node', 'app', 'build', '--out'])"],
  ['cac', "const cli = pkg.cac('app'); cli.command('copy [...files] <dest>', 'Copy').action(() => {}); cli.parse(['node', 'app', 'copy', 'a', 'b'])"],
  ['cac', "const cli = pkg.cac('app'); cli.option('--port <port>', 'Port'); cli.command('', 'Serve').action(() => {}); cli.parse(['node', 'app', '--host', 'x'])"],
  ['cac', "const cli = pkg.default('app'); cli.command('deploy <env>', 'Deploy').action(() => {}); cli.parse(['node', 'app', 'deploy'])", 'esm'],
  ['humanize-duration', "pkg(1000, { language: 'klingon' })"],
  ['humanize-duration', "pkg(1000, { units: ['fortnight'] })"],
  ['humanize-duration', "pkg(1000, { language: 'xx', fallbacks: ['yy'] })"],
  ['humanize-duration', "pkg(1000, { fallbacks: [] , language: 'xx' })"],
  ['humanize-duration', "pkg.humanizer({ language: 'nope' })(5000)"],
  ['humanize-duration', "pkg('soon')"],
  ['humanize-duration', "pkg(1000, { decimal: 5, units: 'h' })"],
  ['pretty-ms', "pkg.default('1000')"],
  ['pretty-ms', "pkg.default(Infinity)"],
  ['pretty-ms', "pkg.default(NaN)"],
  ['pretty-ms', "pkg.default(undefined)"],
  ['pretty-ms', "pkg.default({ ms: 5 })", 'esm'],
  ['filesize', "pkg.filesize('abc')"],
  ['filesize', "pkg.filesize(1024, { roundingMethod: 'nope' })"],
  ['filesize', "pkg.filesize(NaN)"],
  ['filesize', "pkg.filesize(1024, { standard: 'nope', base: 3 })"],
  ['filesize', "pkg.filesize(1024, { exponent: 99 })"],
  ['filesize', "pkg.partial({ roundingMethod: 'up' })(1024)"],
  ['filesize', "pkg.filesize(undefined)"],
  ['filesize', "pkg.filesize({})", 'esm'],
  ['long', "pkg.fromString('')"],
  ['long', "pkg.fromString('12-3')"],
  ['long', "pkg.fromString('1', false, 99)"],
  ['long', "pkg.fromInt(1).div(pkg.ZERO)"],
  ['long', "pkg.fromInt(5).toString(1)"],
  ['long', "pkg.fromString('ff', 16).div(0)"],
  ['long', "pkg.fromValue(null)"],
  ['long', "pkg.default.fromString('1-')", 'esm'],
  ['valibot', "pkg.parse(pkg.string(), 5)"],
  ['valibot', "pkg.parse(pkg.object({ a: pkg.number() }), {})"],
  ['valibot', "pkg.parse(pkg.pipe(pkg.string(), pkg.email()), 'nope')"],
  ['valibot', "pkg.parse(pkg.pipe(pkg.string(), pkg.minLength(3)), 'a')"],
  ['valibot', "pkg.parse(pkg.picklist(['a', 'b']), 'c')"],
  ['valibot', "pkg.parse(pkg.array(pkg.number()), [1, 'x'])"],
  ['valibot', "pkg.parse(pkg.pipe(pkg.number(), pkg.integer()), 1.5)"],
  ['valibot', "pkg.parse(pkg.pipe(pkg.string(), pkg.url()), 'nope')"],
  ['valibot', "pkg.parse(pkg.pipe(pkg.string(), pkg.regex(/^a/)), 'b')"],
  ['valibot', "pkg.parse(pkg.strictObject({ a: pkg.string() }), { a: 'x', b: 1 })"],
  ['valibot', "pkg.parse(pkg.union([pkg.string(), pkg.number()]), true)"],
  ['valibot', "pkg.parse(pkg.pipe(pkg.string(), pkg.uuid()), 'nope')", 'esm'],
  ['jsonschema', "new pkg.Validator().validate(5, { type: 'string' }, { throwError: true })"],
  ['jsonschema', "pkg.validate({}, { $ref: '#/definitions/x' })"],
  ['jsonschema', "pkg.validate(5, 5)"],
  ['jsonschema', "new pkg.Validator().validate({}, { required: ['a'] }, { throwFirst: true })"],
  ['jsonschema', "new pkg.Validator().validate(5, { type: 'string', minimum: 3 }, { throwAll: true })"],
  ['jsonschema', "pkg.validate(5, { type: 'string' }, { throwError: true })"],
  ['jsonschema', "new pkg.Validator().validate('x', { $ref: 'http://example.com/missing.json' })"],
  ['jsonschema', "new pkg.Validator().validate({ a: 1 }, { properties: { a: { format: 'email', type: 'string' } } }, { throwError: true })"],
  ['jsonschema', "pkg.validate(5, { type: 'nope' }, { throwError: true })"],
  ['jsonschema', "new pkg.Validator().validate(5, { allOf: 5 })"],
  ['lru-cache', "new pkg.LRUCache({})"],
  ['lru-cache', "new pkg.LRUCache({ max: -1 })"],
  ['lru-cache', "new pkg.LRUCache({ maxSize: 10 }).set('a', 'b')"],
  ['lru-cache', "new pkg.LRUCache({ max: 1, ttl: -1 })"],
  ['lru-cache', "new pkg.LRUCache({ max: 1, dispose: 5 })"],
  ['lru-cache', "new pkg.LRUCache({ max: 1, fetchMethod: 5 })"],
  ['lru-cache', "new pkg.LRUCache({ maxSize: 2, sizeCalculation: 5 })"],
  ['lru-cache', "new pkg.LRUCache({ max: 1, memoMethod: 5 })"],
  ['lru-cache', "new pkg.LRUCache({ max: 10 }).memo('a')"],
  ['lru-cache', "new pkg.LRUCache({ max: 1.5 })"],
  ['lru-cache', "new pkg.LRUCache({ max: 10, maxEntrySize: 5 }).set('a', 'b', { size: -1 })"],
  ['lru-cache', "new pkg.LRUCache({ ttl: 100 })", 'esm'],
  ['mnemonist', "new pkg.FixedDeque(Array, 0)"],
  ['mnemonist', "const d = new pkg.FixedDeque(Array, 1); d.push(1); d.push(2)"],
  ['mnemonist', "new pkg.CircularBuffer(Array, 0)"],
  ['mnemonist', "new pkg.LRUCache(0)"],
  ['mnemonist', "const s = new pkg.FixedStack(Array, 1); s.push(1); s.push(2)"],
  ['mnemonist', "new pkg.SparseSet(4).add(10); new pkg.BitSet(-1)"],
  ['mnemonist', "new pkg.Vector(Array, { initialLength: -1 })"],
  ['mnemonist', "pkg.Heap.from(5)"],
  ['mnemonist', "new pkg.FixedReverseHeap(Array, (a, b) => a - b)"],
  ['mnemonist', "new pkg.StaticDisjointSet(3).union(0, 10)"],
  ['mnemonist', "new pkg.BloomFilter(0)"],
  ['mnemonist', "new pkg.MultiMap(5)"],
  ['proxy-addr', "pkg.compile('nope')"],
  ['proxy-addr', "pkg.compile('10.0.0.1/99')"],
  ['proxy-addr', "pkg({ headers: {}, connection: { remoteAddress: '1.2.3.4' } })"],
  ['proxy-addr', "pkg()"],
  ['proxy-addr', "pkg({ headers: {}, connection: { remoteAddress: '1.2.3.4' } }, 5)"],
  ['proxy-addr', "pkg.compile('10.0.0.1/255.0.255.0')"],
  ['proxy-addr', "pkg.all({ headers: { 'x-forwarded-for': 'a' }, connection: { remoteAddress: '1.2.3.4' } }, 'bogus')"],
  ['fast-xml-parser', "new pkg.XMLParser().parse('<a><b></a>')"],
  ['fast-xml-parser', "new pkg.XMLParser().parse('<a><b></a>', true)"],
  ['fast-xml-parser', "new pkg.XMLParser().parse(5)"],
  ['fast-xml-parser', "new pkg.XMLParser().parse('<a></b>')"],
  ['fast-xml-parser', "new pkg.XMLParser().parse('<a x=\"1\" x=\"2\"/>', true)"],
  ['fast-xml-parser', "new pkg.XMLParser().addEntity('#x', 'y')"],
  ['fast-xml-parser', "new pkg.XMLParser({ processEntities: true }).parse('<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a><!DOCTYPE b>')"],
  ['fast-xml-parser', "new pkg.XMLParser().parse('<a>')"],
  ['fast-xml-parser', "new pkg.XMLParser().parse('<a><b></a>')", 'esm'],
  ['fast-xml-parser', "new pkg.XMLParser().parse('<a><b></a>', true)", 'esm'],
  ['fast-xml-parser', "new pkg.XMLParser().parse('<a x=\"1\" x=\"2\"/>', true)", 'esm'],
  ['fast-xml-parser', "new pkg.XMLParser({ processEntities: true }).parse('<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a><!DOCTYPE b>')", 'esm'],
];
// A fourth held-out set (added 2026-12-07, branch npm4): packages no set
// used, nor any scanner round read, nor the node_modules the bundle rule
// was tried on: lexers and parsers (moo, nearley, css-what, hjson, toml,
// expr-eval, xregexp), JSON Patch, numbers (complex.js, big-integer),
// encodings and binary formats (he, base-x, @msgpack/msgpack, bson),
// HTTP headers (content-disposition, media-typer), versions, cron and
// arguments (compare-versions, command-line-args), a cache
// (quick-lru), templates (liquidjs, eta), addresses (ip-address,
// netmask) and crypto (tweetnacl); written before errdex was run on
// them, loaded by name as the third set's.
const held4 = [
  ['moo', "pkg.compile({ a: /a/i })"],
  ['moo', "pkg.compile({ a: /(a)/ })"],
  ['moo', "pkg.compile({ a: /a*/ })"],
  ['moo', "pkg.compile({ a: 5 })"],
  ['moo', "pkg.compile({ nl: /\\n/ })"],
  ['moo', "const l = pkg.compile({ a: /a/ }); l.reset('b'); l.next()"],
  ['moo', "pkg.states({ main: { a: { match: /a/, next: 'nope' } } })"],
  ['moo', "pkg.compile({ a: { match: /a/, type: 'x' } })"],
  ['moo', "pkg.compile({ a: /a/, b: { match: /b/, push: 'x' } })"],
  ['moo', "pkg.compile([{ match: /a/ }])"],
  ['moo', "pkg.compile({ a: /a/u, b: /b/ })"],
  ['moo', "pkg.states({ main: { a: /a/, b: { include: 'nope' } } })"],
  ['nearley', "const g = pkg.Grammar.fromCompiled({ ParserRules: [{ name: 'main', symbols: [{ literal: 'a' }] }], ParserStart: 'main' }); new pkg.Parser(g).feed('b')"],
  ['nearley', "const g = pkg.Grammar.fromCompiled({ ParserRules: [{ name: 'main', symbols: [{ literal: 'a' }] }], ParserStart: 'main' }); new pkg.Parser(g).rewind(0)"],
  ['nearley', "const g = pkg.Grammar.fromCompiled({ ParserRules: [{ name: 'main', symbols: [{ literal: 'a' }, { literal: 'b' }] }], ParserStart: 'main' }); new pkg.Parser(g).feed('ac')"],
  ['css-what', "pkg.parse('a[')"],
  ['css-what', "pkg.parse('a!')"],
  ['css-what', "pkg.parse(':not(a')"],
  ['css-what', "pkg.parse('a > > b')"],
  ['css-what', "pkg.parse('a,')"],
  ['css-what', "pkg.parse('[a=\"b]')"],
  ['css-what', "pkg.parse('a /* x')"],
  ['css-what', "pkg.parse('[a!b]')"],
  ['css-what', "pkg.parse(':contains(\"a\"')", 'esm'],
  ['fast-json-patch', "pkg.applyPatch({}, [{ op: 'nope', path: '/a' }], true)"],
  ['fast-json-patch', "pkg.applyPatch({}, [{ op: 'add', path: 'a', value: 1 }], true)"],
  ['fast-json-patch', "pkg.applyPatch({}, [{ op: 'test', path: '/a', value: 1 }])"],
  ['fast-json-patch', "pkg.applyPatch({}, [{ op: 'remove', path: '/a/b' }], true)"],
  ['fast-json-patch', "pkg.applyPatch({}, {}, true)"],
  ['fast-json-patch', "pkg.applyOperation({ a: [] }, { op: 'add', path: '/a/5', value: 1 }, true)"],
  ['fast-json-patch', "pkg.applyPatch({}, [{ op: 'replace', path: '/__proto__/x', value: 1 }])"],
  ['fast-json-patch', "pkg.applyPatch({}, [{ op: 'add', path: '/a' }], true)"],
  ['fast-json-patch', "pkg.applyPatch({}, [{ op: 'move', path: '/a' }], true)"],
  ['fast-json-patch', "pkg.applyPatch({}, [5], true)"],
  ['fast-json-patch', "pkg.default.applyPatch({}, [{ op: 'nope', path: '/a' }], true)", 'esm'],
  ['complex.js', "new pkg.Complex('abc')"],
  ['complex.js', "new pkg.Complex({ x: 1 })"],
  ['complex.js', "new pkg.Complex('abc')", 'esm'],
  ['big-integer', "pkg('abc')"],
  ['big-integer', "pkg(2).modPow(2, 0)"],
  ['big-integer', "pkg(2).modInv(4)"],
  ['big-integer', "pkg('1e-5')"],
  ['big-integer', "pkg('z', 10)"],
  ['big-integer', "pkg(10).toString(0)"],
  ['big-integer', "pkg('1e2e3')"],
  ['he', "pkg.decode('&amp', { strict: true })", 'esm'],
  ['he', "pkg.encode('\\x01', { strict: true })", 'esm'],
  ['he', "pkg.decode('&#0;', { strict: true })", 'esm'],
  ['he', "pkg.decode('&#xD800;', { strict: true })", 'esm'],
  ['base-x', "pkg.default('01').decode('2')"],
  ['base-x', "pkg.default('aa')"],
  ['base-x', "pkg.default('01').encode('x')"],
  ['base-x', "pkg.default('01').decode(5)"],
  ['base-x', "pkg.default('01').decode('9')", 'esm'],
  ['content-disposition', "pkg.create('x', { type: 'bad type' })"],
  ['content-disposition', "pkg.create('\\u00e9', { fallback: '\\u00e9' })"],
  ['media-typer', "pkg.parse('bad')"],
  ['media-typer', "pkg.format({ type: 'a b', subtype: 'x' })"],
  ['media-typer', "pkg.format({ type: 'text', subtype: 'a b' })"],
  ['media-typer', "pkg.format({ type: 'text', subtype: 'x', suffix: 'a b' })"],
  ['media-typer', "pkg.parse(5)"],
  ['compare-versions', "pkg.compareVersions('x', '1.0.0')"],
  ['compare-versions', "pkg.compare('1.0.0', '1.0.0', '~')"],
  ['compare-versions', "pkg.compareVersions(5, '1')"],
  ['compare-versions', "pkg.compare('1.0.0', '1.0.0', 5)"],
  ['compare-versions', "pkg.satisfies('1.0.0', 'x')"],
  ['compare-versions', "pkg.compareVersions('1.0.0', 'nope')", 'esm'],
  ['command-line-args', "pkg([{ name: 'a' }], { argv: ['--b'] })"],
  ['command-line-args', "pkg([{ name: 'a', type: Number, defaultOption: true }], { argv: ['1', '2'] })"],
  ['command-line-args', "pkg([{ name: 'a' }, { name: 'a' }], { argv: [] })"],
  ['command-line-args', "pkg([{ name: 'a', alias: 'ab' }], { argv: [] })"],
  ['command-line-args', "pkg([{ name: 'a' }], { argv: ['x'] })"],
  ['command-line-args', "pkg([{ name: 'a', type: 'x' }], { argv: [] })"],
  ['command-line-args', "pkg([{ type: String }], { argv: [] })"],
  ['command-line-args', "pkg.default([{ name: 'a' }], { argv: ['--b'] })", 'esm'],
  ['quick-lru', "new pkg.default({ maxSize: 0 })"],
  ['quick-lru', "new pkg.default({ maxSize: 1, maxAge: 0 })"],
  ['quick-lru', "new pkg.default({ maxSize: 1 }).resize(0)"],
  ['quick-lru', "new pkg.default({})", 'esm'],
  ['@msgpack/msgpack', "pkg.decode(new Uint8Array([0xc1]))"],
  ['@msgpack/msgpack', "pkg.decode(new Uint8Array([0x92, 1]))"],
  ['@msgpack/msgpack', "pkg.encode(() => 1)"],
  ['@msgpack/msgpack', "pkg.decode(new Uint8Array([1, 2]))"],
  ['@msgpack/msgpack', "pkg.decode(new Uint8Array([0xd6, 0xff, 1, 2, 3]))"],
  ['@msgpack/msgpack', "pkg.decode(new Uint8Array([0x81, 0x81, 0x80, 1, 1]))"],
  ['@msgpack/msgpack', "pkg.decode(new Uint8Array([0xc1]))", 'esm'],
  ['liquidjs', "new pkg.Liquid().parse('{% if %}')"],
  ['liquidjs', "new pkg.Liquid({ strictFilters: true }).parseAndRenderSync('{{ a | nope }}', {})"],
  ['liquidjs', "new pkg.Liquid({ strictVariables: true }).parseAndRenderSync('{{ a }}', {})"],
  ['liquidjs', "new pkg.Liquid().parse('{% for %}')"],
  ['liquidjs', "new pkg.Liquid().parse('{% nope %}')"],
  ['liquidjs', "new pkg.Liquid().parse('{{ a')"],
  ['liquidjs', "new pkg.Liquid().parse('{% if a %}')"],
  ['liquidjs', "new pkg.Liquid().parse('{% if a %}')", 'esm'],
  ['ip-address', "new pkg.Address4('1.2.3')"],
  ['ip-address', "new pkg.Address4('1.2.3.4/40')"],
  ['ip-address', "new pkg.Address6('1::2::3')"],
  ['ip-address', "new pkg.Address6('zz::')"],
  ['ip-address', "new pkg.Address6('1:2:3')"],
  ['ip-address', "pkg.Address4.fromHex('abc')"],
  ['ip-address', "pkg.Address4.fromInteger(-1)"],
  ['ip-address', "pkg.Address6.fromArpa('x')"],
  ['ip-address', "new pkg.Address4('01.2.3.4')"],
  ['netmask', "new pkg.Netmask('1.2.3.4/40')"],
  ['netmask', "new pkg.Netmask('300.1.1.1')"],
  ['netmask', "new pkg.Netmask('1.2.3.4', '255.0.255.0')"],
  ['netmask', "new pkg.Netmask('1..2.3')"],
  ['netmask', "new pkg.Netmask('1::2::3/64')"],
  ['netmask', "new pkg.Netmask('fe80::/200')"],
  ['netmask', "new pkg.Netmask()"],
  ['xregexp', "pkg('(?<a>x)(?<a>y)')"],
  ['xregexp', "pkg('a', 'gg')"],
  ['xregexp', "pkg('a', 'q')"],
  ['xregexp', "pkg('\\\\k<nope>')"],
  ['xregexp', "pkg.matchRecursive('(a', '\\\\(', '\\\\)', 'g')"],
  ['xregexp', "pkg('\\\\p{Nope}')"],
  ['xregexp', "pkg.build('{{x}}', {})"],
  ['xregexp', "pkg.default('a', 'gg')", 'esm'],
  ['tweetnacl', "pkg.secretbox(new Uint8Array(1), new Uint8Array(24), new Uint8Array(1))"],
  ['tweetnacl', "pkg.box.keyPair.fromSecretKey(new Uint8Array(1))"],
  ['tweetnacl', "pkg.sign.detached('x', new Uint8Array(64))"],
  ['tweetnacl', "pkg.sign.keyPair.fromSeed(new Uint8Array(1))"],
  ['tweetnacl', "pkg.scalarMult(new Uint8Array(1), new Uint8Array(32))"],
  ['tweetnacl', "pkg.secretbox(new Uint8Array(1), new Uint8Array(2), new Uint8Array(32))"],
  ['expr-eval', "pkg.Parser.evaluate('1 +')"],
  ['expr-eval', "pkg.Parser.evaluate('x + 1')"],
  ['expr-eval', "pkg.Parser.parse('(1')"],
  ['expr-eval', "pkg.Parser.evaluate('1 $ 2')"],
  ['expr-eval', "pkg.Parser.evaluate('f(1)', { f: 5 })"],
  ['expr-eval', "pkg.Parser.evaluate('\"abc')"],
  ['expr-eval', "pkg.Parser.evaluate('1 +')", 'esm'],
  ['hjson', "pkg.parse('{a:}')"],
  ['hjson', "pkg.parse(5)"],
  ['hjson', "pkg.parse('[1,2')"],
  ['hjson', "pkg.parse('{a: 1}}')"],
  ['hjson', "pkg.parse('{a: \"x')"],
  ['hjson', "pkg.parse('{\"a\" 1}')"],
  ['toml', "pkg.parse('a = ')"],
  ['toml', "pkg.parse('a = 1\\na = 2')"],
  ['toml', "pkg.parse('[a]\\n[a]')"],
  ['eta', "new pkg.Eta().renderString('<% if (x) { %>', {})"],
  ['eta', "new pkg.Eta().render('./nope', {})"],
  ['eta', "new pkg.Eta().renderString('<%= x', {})"],
  ['eta', "new pkg.Eta({ views: '/tmp' }).render('./no-such-template', {})"],
  ['eta', "new pkg.Eta({ views: '/tmp' }).render('../etc/passwd', {})"],
  ['bson', "pkg.BSON.deserialize(new Uint8Array(2))"],
  ['bson', "new pkg.ObjectId('xyz')"],
  ['bson', "pkg.Decimal128.fromString('abc')"],
  ['bson', "new pkg.UUID('nope')"],
  ['bson', "pkg.Long.fromString('')"],
  ['bson', "pkg.BSON.serialize(5)"],
  ['bson', "new pkg.ObjectId('xyz')", 'esm'],
];
// A fifth held-out set (added 2026-12-07, branch npm5): 25 packages no set
// used, nor any scanner round read, of kinds the sets before had few of:
// argument parsers (optionator, clipanion, citty), binary formats and their
// encodings (fflate, cborg, protobufjs, varint, base64-js, image-size, bn.js),
// compiled TypeScript with per-format builds (runtypes, inversify, rrule,
// ulid, tough-cookie, jsonpath-plus), errors of classes with codes
// (@xmldom/xmldom's DOMException, citty's CLIError, ulid's ULIDError,
// protobufjs' ProtocolError, env-var's EnvVarError), ESM-only packages (cborg,
// pretty-bytes, plist, citty, color), JSON pointers and logic, HTTP's vary;
// written before errdex was run on them.
const held5 = [
  ['optionator', "pkg({ options: [{ option: 'port', type: 'Number' }] }).parse(['node', 'x', '--nope'])"],
  ['optionator', "pkg({ options: [{ option: 'port', type: 'Number' }] }).parse(['node', 'x', '--port', 'abc'])"],
  ['optionator', "pkg({ options: [{ option: 'port', type: 'Number', required: true }] }).parse(['node', 'x'])"],
  ['optionator', "pkg({ options: [{ option: 'port', type: 'Number' }] }).parse(['node', 'x', '--port'])"],
  ['optionator', "pkg({ options: [{ option: 'mode', type: 'String', enum: ['a', 'b'] }] }).parse(['node', 'x', '--mode', 'c'])"],
  ['optionator', "pkg({ options: [{ option: 'a', type: 'Boolean', dependsOn: 'b' }, { option: 'b', type: 'Boolean' }] }).parse(['node', 'x', '-a'])"],
  ['optionator', "pkg({ options: [{ option: 'a', type: 'Boolean' }], mutuallyExclusive: [['a', 'b']] }).parse(['node', 'x', '-a', '-b'])"],
  ['optionator', "pkg({ options: [{ option: 'ab', alias: 'a', type: 'Boolean' }, { option: 'ac', alias: 'a', type: 'Boolean' }] })"],
  ['fflate', "pkg.inflateSync(new Uint8Array([0xff, 0xff, 0xff]))"],
  ['fflate', "pkg.gunzipSync(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]))"],
  ['fflate', "pkg.unzipSync(new Uint8Array(30))"],
  ['fflate', "pkg.unzlibSync(new Uint8Array([0x78, 0x00, 1, 2]))"],
  ['fflate', "new pkg.Deflate().push(new Uint8Array(1))"],
  ['fflate', "pkg.inflateSync(new Uint8Array([1]))"],
  ['cborg', "pkg.decode(new Uint8Array([0x1f]))", 'esm'],
  ['cborg', "pkg.decode(new Uint8Array([0x18]))", 'esm'],
  ['cborg', "pkg.decode(new Uint8Array([0x01, 0x02]))", 'esm'],
  ['cborg', "pkg.encode(Symbol('x'))", 'esm'],
  ['cborg', "pkg.encode(() => 1)", 'esm'],
  ['cborg', "pkg.decode(new Uint8Array([0xa2, 0x01, 0x02, 0x01, 0x03]), { rejectDuplicateMapKeys: true })", 'esm'],
  ['cborg', "pkg.decode(new Uint8Array([0xc1, 0x00]))", 'esm'],
  ['cborg', "pkg.decode(new Uint8Array([0xf7]), { allowUndefined: false })", 'esm'],
  ['cborg', "pkg.decode(new Uint8Array([0xa1, 0xa0, 0x01]))", 'esm'],
  ['cborg', "pkg.decode(new Uint8Array([]))", 'esm'],
  ['runtypes', "pkg.String.check(5)"],
  ['runtypes', "pkg.Object({ a: pkg.String }).check({ a: 1 })"],
  ['runtypes', "pkg.Literal(1).check(2)"],
  ['runtypes', "pkg.Array(pkg.Number).check([1, 'x'])"],
  ['runtypes', "pkg.Union(pkg.String, pkg.Number).check(null)"],
  ['runtypes', "pkg.String.withConstraint((s) => s.length > 3 || 'too short').check('ab')"],
  ['runtypes', "pkg.Number.parse('x')"],
  ['runtypes', "pkg.String.check(5)", 'esm'],
  ['pretty-bytes', "pkg.default(NaN)", 'esm'],
  ['pretty-bytes', "pkg.default('x')", 'esm'],
  ['pretty-bytes', "pkg.default(1, { minimumFractionDigits: 3, maximumFractionDigits: 1 })", 'esm'],
  ['bn.js', "new pkg(1).div(new pkg(0))"],
  ['bn.js', "new pkg('zz', 10)"],
  ['bn.js', "new pkg(1).toString(99)"],
  ['bn.js', "new pkg(65536).toArrayLike(Array, 'be', 1)"],
  ['bn.js', "new pkg(1).redAdd(new pkg(1))"],
  ['bn.js', "new pkg(1).iushln(-1)"],
  ['bn.js', "new pkg('1'.repeat(100)).toNumber()"],
  ['bn.js', "new pkg(1).toRed(pkg.red('nope'))"],
  ['json-pointer', "pkg.get({}, '/a')"],
  ['json-pointer', "pkg.parse('a')"],
  ['json-pointer', "pkg.set({}, '', 1)"],
  ['json-pointer', "pkg.remove({}, '')"],
  ['inversify', "new pkg.Container().get('nope')"],
  ['inversify', "const c = new pkg.Container(); c.bind('a').toConstantValue(1); c.bind('a').toConstantValue(2); c.get('a')"],
  ['inversify', "new pkg.Container({ defaultScope: 'nope' })"],
  ['inversify', "new pkg.Container(5)"],
  ['inversify', "new pkg.Container().unbind('nope')"],
  ['inversify', "new pkg.Container().restore()"],
  ['inversify', "new pkg.Container({ autoBindInjectable: 5 })"],
  ['inversify', "new pkg.Container({ skipBaseClassChecks: 5 })"],
  ['rrule', "pkg.RRule.fromString('FREQ=NOPE')"],
  ['rrule', "pkg.RRule.fromString('NOPE=1')"],
  ['rrule', "pkg.rrulestr('DTSTART:nope')"],
  ['rrule', "pkg.rrulestr('RRULE:FREQ=DAILY\\nNOPE:1')"],
  ['rrule', "pkg.rrulestr('FREQ=DAILY;UNTIL=nope')"],
  ['rrule', "new pkg.RRule({ freq: pkg.RRule.DAILY, until: new Date(NaN) }).all()"],
  ['rrule', "pkg.default.RRule.fromString('FREQ=NOPE')", 'esm'],
  ['jsonpath-plus', "pkg.JSONPath({ json: {} })"],
  ['jsonpath-plus', "pkg.JSONPath({ path: '$[?(@ > 1)]', json: [1, 2], eval: false })"],
  ['jsonpath-plus', "pkg.JSONPath({ path: '$[?(@ ==)]', json: [1, 2] })"],
  ['jsonpath-plus', "pkg.JSONPath({ path: '$[?(@.a)]', json: [{ a: 1 }], eval: 'nope' })"],
  ['jsonpath-plus', "pkg.JSONPath({ json: {} })", 'esm'],
  ['json-logic-js', "pkg.apply({ nope: [1] })"],
  ['json-logic-js', "pkg.apply({ method: [1, 'nope'] })"],
  ['@xmldom/xmldom', "new pkg.DOMParser().parseFromString('<a/>', 'nope')"],
  ['@xmldom/xmldom', "new pkg.DOMParser({ onError: pkg.onErrorStopParsing }).parseFromString('<a><b></a>', 'text/xml')"],
  ['@xmldom/xmldom', "new pkg.DOMImplementation().createDocument(null, 'a b')"],
  ['@xmldom/xmldom', "const d = new pkg.DOMImplementation().createDocument(null, 'a'); d.documentElement.appendChild(d)"],
  ['@xmldom/xmldom', "const d = new pkg.DOMImplementation().createDocument(null, 'a'); d.documentElement.removeChild(d.createElement('b'))"],
  ['@xmldom/xmldom', "const d = new pkg.DOMImplementation().createDocument(null, 'a'); const at = d.createAttribute('x'); d.documentElement.setAttributeNode(at); d.createElement('b').setAttributeNode(at)"],
  ['@xmldom/xmldom', "new pkg.DOMParser({ onError: pkg.onErrorStopParsing }).parseFromString('<a x=\"1\" x=\"2\"/>', 'text/xml')"],
  ['@xmldom/xmldom', "new pkg.DOMParser().parseFromString('', 'text/xml')"],
  ['tough-cookie', "new pkg.CookieJar().setCookieSync('a=b', 'not a url')"],
  ['tough-cookie', "new pkg.CookieJar().setCookieSync('a=b; Domain=other.com', 'http://example.com')"],
  ['tough-cookie', "new pkg.CookieJar(null, { rejectPublicSuffixes: true }).setCookieSync('a=b; Domain=com', 'http://example.com')"],
  ['tough-cookie', "new pkg.CookieJar().setCookieSync('a=b; HttpOnly', 'http://example.com', { http: false })"],
  ['tough-cookie', "new pkg.CookieJar(null, { prefixSecurity: 'strict' }).setCookieSync('__Secure-a=b', 'http://example.com')"],
  ['tough-cookie', "new pkg.CookieJar().setCookieSync('a=b; Domain=other.com', 'http://example.com')", 'esm'],
  ['env-var', "pkg.from({}).get('X').required().asString()"],
  ['env-var', "pkg.from({ X: 'abc' }).get('X').asInt()"],
  ['env-var', "pkg.from({ X: 'x' }).get('X').asBool()"],
  ['env-var', "pkg.from({ X: 'x' }).get('X').asUrlString()"],
  ['env-var', "pkg.from({ X: 'x' }).get('X').asEnum(['a'])"],
  ['env-var', "pkg.from({ X: '{' }).get('X').asJson()"],
  ['env-var', "pkg.from({ X: '-1' }).get('X').asPortNumber()"],
  ['env-var', "pkg.from({ X: 'a' }).get('X').asEmailString()"],
  ['ulid', "pkg.decodeTime('nope')"],
  ['ulid', "pkg.encodeTime(2 ** 49)"],
  ['ulid', "pkg.ulidToUUID('x')"],
  ['ulid', "pkg.uuidToULID('x')"],
  ['ulid', "pkg.decodeTime('8ZZZZZZZZZZZZZZZZZZZZZZZZZ')"],
  ['ulid', "pkg.encodeTime(-1)"],
  ['ulid', "pkg.decodeTime('nope')", 'esm'],
  ['vary', "pkg({ getHeader() {}, setHeader() {} }, 'a b')"],
  ['vary', "pkg.append(5, 'a')"],
  ['vary', "pkg({}, 'a')"],
  ['protobufjs', "pkg.parse('message {')"],
  ['protobufjs', "pkg.parse('message A { nope x = 1; }').root.resolveAll()"],
  ['protobufjs', "new pkg.Field('a', 1.5, 'int32')"],
  ['protobufjs', "pkg.parse('message A { int32 a = 1; int32 b = 1; }')"],
  ['protobufjs', "pkg.Root.fromJSON({ nested: { A: { fields: { a: { type: 'int32', id: 1 } } } } }).lookupType('B')"],
  ['protobufjs', "pkg.Root.fromJSON({ nested: { A: { fields: { a: { type: 'int32', id: 1 } } } } }).lookupType('A').decode(new Uint8Array([0x08]))"],
  ['protobufjs', "pkg.parse('enum E { A = 1; A = 2; }')"],
  ['protobufjs', "new pkg.Enum('E', { A: 1 }).add('B', 'x')"],
  ['varint', "pkg.decode([0xff])"],
  ['varint', "pkg.encode(2 ** 64)"],
  ['base64-js', "pkg.toByteArray('abc')"],
  ['base64-js', "pkg.byteLength('abcde')"],
  ['plist', "pkg.parse('<plist><nope/></plist>')", 'esm'],
  ['plist', "pkg.parse('<x/>')", 'esm'],
  ['plist', "pkg.parse('<plist><dict><string>a</string></dict></plist>')", 'esm'],
  ['citty', "await pkg.runCommand(pkg.defineCommand({ args: { name: { type: 'positional', required: true } }, run() {} }), { rawArgs: [] })", 'esm'],
  ['citty', "await pkg.runCommand(pkg.defineCommand({ args: { mode: { type: 'enum', options: ['a'] } }, run() {} }), { rawArgs: ['--mode', 'b'] })", 'esm'],
  ['citty', "await pkg.runCommand(pkg.defineCommand({ subCommands: { a: { run() {} } } }), { rawArgs: ['b'] })", 'esm'],
  ['citty', "await pkg.runCommand(pkg.defineCommand({ subCommands: { a: { run() {} } } }), { rawArgs: [] })", 'esm'],
  ['clipanion', "pkg.Cli.from([]).process(['nope'])"],
  ['clipanion', "class A extends pkg.Command { static paths = [['a']]; n = pkg.Option.String(); async execute() {} }; pkg.Cli.from([A]).process(['a', '--nope'])"],
  ['clipanion', "class A extends pkg.Command { static paths = [['a']]; n = pkg.Option.String(); async execute() {} }; pkg.Cli.from([A]).process(['a'])"],
  ['clipanion', "class A extends pkg.Command { static paths = [['a']]; async execute() {} }; pkg.Cli.from([A]).process(['b'])"],
  ['clipanion', "class A extends pkg.Command { static paths = [['a']]; n = pkg.Option.String('--n', { required: true }); async execute() {} }; pkg.Cli.from([A]).process(['a'])"],
  ['clipanion', "class A extends pkg.Command { static paths = [['a']]; n = pkg.Option.String(); m = pkg.Option.String(); async execute() {} }; pkg.Cli.from([A]).process(['a', 'x', 'y', 'z'])"],
  ['image-size', "pkg.imageSize(Buffer.from('nope'))"],
  ['image-size', "pkg.imageSize(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(24)]))"],
  ['image-size', "pkg.imageSize(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))"],
  ['image-size', "pkg.imageSize(Buffer.from('nope'))", 'esm'],
  ['color', "pkg.default('nope')", 'esm'],
  ['color', "pkg.default({ x: 1 })", 'esm'],
  ['color', "pkg.default(5, 'nope')", 'esm'],
  ['color', "pkg.default('red').mix('blue')", 'esm'],
  ['color', "pkg.default([1, 2, 3], 'nope')", 'esm'],
];
// A sixth held-out set (added 2026-12-07, branch npm6): packages no set
// used, nor any scanner round read, nor node_modules held before, of kinds
// the sets before had few of: errors made in async code and handed to a
// promise's rejection (bluebird, p-timeout, p-some, async-mutex, bcryptjs'
// callbacks), AggregateError (bluebird's `any`, aggregate-error), errors
// with a `cause` (@eslint/object-schema's and @eslint/config-array's
// wrappers), stream and event-emitter errors whose messages come from a
// table (readable-stream's `E('ERR_…', msg)`, sax's stream), validation
// messages joined from parts (convict), builds with source maps
// (markdown-it's `dist/`), ESM-only (devalue, p-timeout, p-some) and a parser
// generator (peggy); written before errdex was run on them.
const held6 = [
  ['sax', "const p = pkg.parser(true); p.write('<a><b></a>'); p.close()"],
  ['sax', "const p = pkg.parser(true); p.write('<a>'); p.close()"],
  ['sax', "const p = pkg.parser(true); p.write('<a x=1/>')"],
  ['sax', "const p = pkg.parser(true); p.write('text')"],
  ['sax', "const p = pkg.parser(true); p.write('<a>&nope;</a>')"],
  ['sax', "pkg.createStream(true).end('<a><b></a>')"],
  ['sax', "pkg.createStream(true).end('<a></a><b/>')"],
  ['sax', "const p = pkg.parser(true); p.write('<a/>'); p.close(); p.write('<b/>')"],
  ['bluebird', "await pkg.default.any([pkg.default.reject(new Error('a')), pkg.default.reject(new Error('b'))])", 'esm'],
  ['bluebird', "await pkg.default.resolve(new Promise(() => {})).timeout(10)", 'esm'],
  ['bluebird', "await pkg.default.some([pkg.default.resolve(1)], 2)", 'esm'],
  ['bluebird', "pkg.promisify(5)"],
  ['bluebird', "new pkg(5)"],
  ['bluebird', "pkg.coroutine(5)"],
  ['bluebird', "await pkg.default.map([1], 5)", 'esm'],
  ['bluebird', "await pkg.default.props(5)", 'esm'],
  ['bluebird', "await pkg.default.reduce([1], 5)", 'esm'],
  ['bluebird', "await pkg.default.resolve(1).then(() => { throw 5; }).catch(5, () => {})", 'esm'],
  ['bluebird', "await pkg.default.delay(1).timeout(1, 'too slow')", 'esm'],
  ['p-timeout', "await pkg.default(new Promise(() => {}), { milliseconds: 10 })", 'esm'],
  ['p-timeout', "await pkg.default(Promise.resolve(), { milliseconds: -1 })", 'esm'],
  ['p-timeout', "await pkg.default(new Promise(() => {}), { milliseconds: 10, message: 'slow' })", 'esm'],
  ['p-some', "await pkg.default([Promise.reject(new Error('a'))], { count: 1 })", 'esm'],
  ['p-some', "await pkg.default([1], { count: 'x' })", 'esm'],
  ['p-some', "await pkg.default([1], { count: 2 })", 'esm'],
  ['aggregate-error', "new pkg.default(5)", 'esm'],
  ['async-mutex', "new pkg.Semaphore(1).acquire(-1)"],
  ['async-mutex', "const m = pkg.withTimeout(new pkg.Mutex(), 10); (async () => { await m.acquire(); await m.acquire(); })()"],
  ['async-mutex', "const m = new pkg.Mutex(); m.acquire(); const p = m.acquire(); m.cancel(); p.then(() => {})"],
  ['async-mutex', "pkg.tryAcquire(new pkg.Mutex()).acquire().then(() => pkg.tryAcquire(new pkg.Mutex(), new Error('busy')))"],
  ['async-mutex', "const m = pkg.tryAcquire(new pkg.Mutex()); (async () => { await m.acquire(); await m.acquire(); })()"],
  ['async-mutex', "new pkg.Semaphore(1).runExclusive(() => {}, 0)"],
  ['async-mutex', "const m = pkg.withTimeout(new pkg.Mutex(), 10); await m.acquire(); await m.acquire()", 'esm'],
  ['bcryptjs', "pkg.hashSync(5, 10)"],
  ['bcryptjs', "pkg.genSaltSync('x')"],
  ['bcryptjs', "pkg.compareSync('a', 5)"],
  ['bcryptjs', "pkg.getRounds(5)"],
  ['bcryptjs', "pkg.getRounds('x')"],
  ['bcryptjs', "pkg.hashSync('a', '$9$10$' + 'a'.repeat(22))"],
  ['bcryptjs', "pkg.hashSync('a', 'nope')"],
  ['bcryptjs', "pkg.hash('a', 10, 5)"],
  ['bcryptjs', "await pkg.default.hash('a', '$2a$99$' + 'a'.repeat(22))", 'esm'],
  ['bcryptjs', "pkg.default.getRounds(5)", 'esm'],
  ['devalue', "pkg.stringify(new (class Foo {})())", 'esm'],
  ['devalue', "pkg.stringify({ a: () => 1 })", 'esm'],
  ['devalue', "pkg.stringify(Symbol('x'))", 'esm'],
  ['devalue', "pkg.uneval({ a: Symbol('x') })", 'esm'],
  ['devalue', "pkg.parse('[[\"Nope\",1]]')", 'esm'],
  ['devalue', "pkg.parse('5')", 'esm'],
  ['devalue', "pkg.parse('[1]', { x: 5 })", 'esm'],
  ['devalue', "pkg.uneval(new (class Foo {})())", 'esm'],
  ['convict', "pkg({ port: { default: 1, format: 'port' } }).load({ port: 'x' }).validate()"],
  ['convict', "pkg({ a: { default: 1, format: 'nope' } })"],
  ['convict', "pkg({ a: { default: 1 } }).get('b')"],
  ['convict', "pkg({ a: { default: 1, format: 5 } })"],
  ['convict', "pkg({ a: { default: 1, format: ['x', 'y'] } }).validate()"],
  ['convict', "pkg({ a: { default: 'x', format: 'int' } }).validate()"],
  ['convict', "pkg.addFormat({ name: 'x', validate: 5 })"],
  ['convict', "pkg.addParser({ extension: 5, parse: () => 1 })"],
  ['convict', "pkg({ a: { default: 1, arg: 'x' }, b: { default: 1, arg: 'x' } })"],
  ['convict', "pkg({ a: { default: 1 } }).load({ b: 1 }).validate({ allowed: 'strict' })"],
  ['convict', "pkg({ a: { default: 1 } }).validate({ output: 5 })"],
  ['readable-stream', "const r = new pkg.Readable({ read() {} }); r.push(null); r.push('x')"],
  ['readable-stream', "const w = new pkg.Writable({ write(c, e, cb) { cb(); } }); w.end(); w.write('x')"],
  ['readable-stream', "new pkg.Readable().read()"],
  ['readable-stream', "new pkg.Writable().write('x')"],
  ['readable-stream', "new pkg.Writable({ write(c, e, cb) { cb(); } }).write(5)"],
  ['readable-stream', "new pkg.Readable({ highWaterMark: -1 })"],
  ['readable-stream', "new pkg.Transform().end('x')"],
  ['readable-stream', "pkg.pipeline(new pkg.Readable({ read() { this.destroy(new Error('boom')); } }), new pkg.PassThrough(), (e) => { throw e; })"],
  ['readable-stream', "const w = new pkg.Writable({ write(c, e, cb) { cb(); cb(); } }); w.write('x')"],
  ['markdown-it', "pkg('nope')"],
  ['markdown-it', "pkg().render(5)"],
  ['markdown-it', "pkg().enable('nope')"],
  ['markdown-it', "pkg().disable('nope')"],
  ['markdown-it', "pkg().core.ruler.at('nope', () => {})"],
  ['markdown-it', "pkg().block.ruler.before('nope', 'x', () => {})"],
  ['markdown-it', "pkg().inline.ruler.after('nope', 'x', () => {})"],
  ['markdown-it', "pkg().core.ruler.enable('nope')"],
  ['markdown-it', "pkg.default('nope')", 'esm'],
  ['markdown-it', "pkg.default().render(5)", 'esm'],
  ['peggy', "pkg.generate('start = ')"],
  ['peggy', "pkg.generate('start = a')"],
  ['peggy', "pkg.generate('start = \"a\"', { output: 'nope' })"],
  ['peggy', "pkg.generate('start = \"a\"', { allowedStartRules: ['b'] })"],
  ['peggy', "pkg.generate('a = \"x\"\\na = \"y\"')"],
  ['peggy', "pkg.generate('start = start')"],
  ['peggy', "pkg.generate('start = (\"a\"?)*')"],
  ['peggy', "pkg.generate('start = l:\"a\" l:\"b\"')"],
  ['peggy', "pkg.generate('start = \"a\"', { output: 'source', format: 'nope' })"],
  ['peggy', "pkg.generate('start = \"a\"').parse('b')"],
  ['@eslint/object-schema', "new pkg.ObjectSchema({ a: { required: true, merge: 'replace', validate: 'string' } }).validate({ a: 5 })"],
  ['@eslint/object-schema', "new pkg.ObjectSchema({ a: { required: true, merge: 'replace', validate: 'string' } }).validate({})"],
  ['@eslint/object-schema', "new pkg.ObjectSchema({ a: { required: false, merge: 'replace', validate: 'string' } }).validate({ b: 1 })"],
  ['@eslint/object-schema', "new pkg.ObjectSchema({ a: {} })"],
  ['@eslint/object-schema', "new pkg.ObjectSchema()"],
  ['@eslint/object-schema', "new pkg.ObjectSchema({ a: { required: false, merge: 'replace', validate: 'string' } }).merge({})"],
  ['@eslint/object-schema', "new pkg.ObjectSchema({ a: { required: false, merge: 'replace', validate: 'string', requires: ['b'] }, b: { required: false, merge: 'replace', validate: 'string' } }).validate({ a: 'x' })"],
  ['@eslint/object-schema', "new pkg.ObjectSchema({ a: { required: false, merge: 'nope', validate: 'string' } })"],
  ['@eslint/object-schema', "new pkg.ObjectSchema({ a: { required: true, merge: 'replace', validate: 'number' } }).validate({ a: 'x' })", 'esm'],
  ['@eslint/config-array', "new pkg.ConfigArray([]).getConfig('x')"],
  ['@eslint/config-array', "new pkg.ConfigArray([{ files: 5 }]).normalizeSync()"],
  ['@eslint/config-array', "new pkg.ConfigArray([5]).normalizeSync()"],
  ['@eslint/config-array', "new pkg.ConfigArray([{ nope: 1 }]).normalizeSync()"],
  ['@eslint/config-array', "new pkg.ConfigArray([() => ({})]).normalizeSync()"],
  ['@eslint/config-array', "new pkg.ConfigArray([{ files: ['*.js'], ignores: 5 }]).normalizeSync()"],
  ['@eslint/config-array', "await new pkg.ConfigArray([{ files: [5] }]).normalize()", 'esm'],
  ['@eslint/config-array', "const c = new pkg.ConfigArray([{ files: ['*.js'] }]); c.normalizeSync(); c.push({})"],
  ['slugify', "pkg(5)"],
];
const cases = heldOut6 ? held6 : heldOut5 ? held5 : heldOut4 ? held4 : heldOut3 ? held3 : heldOut2 ? held2 : heldOut ? held : tuned;

// A minified file (one line of thousands of characters: lru-cache's
// dist/commonjs/node/index.min.js) names no statement by its line. Its
// source map names the original line at the frame's column; the statement
// is where a readable file of the package (dist/commonjs/node/index.js
// beside it first) starts with the same call, whitespace, semicolons and
// trailing commas aside (a compiler lays it out anew). Null when there is
// no map or no such file.
function unminify(root, file, line, column) {
  const text = fs.readFileSync(file, 'utf8');
  const url = (text.match(/\/\/# sourceMappingURL=(\S+)\s*$/) || [])[1];
  if (!url || url.startsWith('data:') || !fs.existsSync(path.join(path.dirname(file), url))) return null;
  const payload = JSON.parse(fs.readFileSync(path.join(path.dirname(file), url), 'utf8'));
  const entry = new SourceMap(payload).findEntry(line - 1, column - 1);
  const at = payload.sources.indexOf(entry.originalSource);
  const original = at >= 0 && payload.sourcesContent ? payload.sourcesContent[at] : null;
  if (!original) return null;
  const flat = (ls) => ls.join('').replace(/\s+/g, '').replace(/,\)/g, ')').replace(/;/g, '');
  // The original statement up to the parenthesis closing its first call.
  const from = flat(original.split('\n').slice(entry.originalLine, entry.originalLine + 8));
  let depth = 0, end = -1;
  for (let k = 0; k < from.length && end < 0; ++k) {
    if (from[k] === '(') ++depth;
    else if (from[k] === ')' && --depth === 0) end = k + 1;
  }
  if (end < 0) return null;
  const want = from.slice(0, end);
  const readable = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory() && e.name !== 'node_modules') walk(p);
      else if (/\.[cm]?js$/.test(e.name) && p !== file) readable.push(p);
    }
  };
  walk(root);
  readable.sort((a, b) => (path.dirname(b) === path.dirname(file)) - (path.dirname(a) === path.dirname(file)) || a.localeCompare(b));
  for (const p of readable) {
    const ls = fs.readFileSync(p, 'utf8').split('\n');
    if (ls.some((l) => l.length > 1000)) continue;
    const i = ls.findIndex((_, k) => flat(ls.slice(k, k + 8)).startsWith(want));
    if (i >= 0) return [null, p, String(i + 1)];  // as a match: [1] the file, [2] the line
  }
  return null;
}

// Whether the statement under the caret of Node's header (`file:line`,
// the source line, a caret line) throws a name again: `throw e;`.
function thrownAgainAtCaret(stderr, header) {
  if (!header) return false;
  const [, source = '', caret = ''] = stderr.split('\n');
  const at = caret.indexOf('^');
  return at >= 0 && caret.trim() === '^' && /^throw\s+[\w$.]+(\[\d+\])?\s*(;|\}|$)/.test(source.slice(at));
}

const out = [];
// A path as the stack prints it, file:// URLs (ES modules) as paths.
const local = (p) => (p.startsWith('file://') ? fileURLToPath(p) : p);
for (const [pkg, code, kind] of cases) {
  const byName = cases === held3 || cases === held4 || cases === held5 || cases === held6;
  const load = JSON.stringify(byName ? pkg : path.join(modules, pkg));
  const script = kind === 'esm' ? `const pkg = await import(${load});\n${code}\n` : `const pkg = require(${load});\n${code}\n`;
  const flags = kind === 'esm' ? ['--input-type=module'] : [];
  const r = spawnSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8', timeout: 30000, cwd: byName ? path.dirname(modules) : undefined });
  // Node may print a blank line before its header (an ES module's
  // rejection Bluebird reports first).
  const stderr = (r.stderr || '').replace(/^\n+/, '');
  // The innermost user frame: the first `at` line not inside node itself.
  const frame = stderr.split('\n').map((l) => l.match(/^\s+at (?:.*? \()?(.*?):(\d+):(\d+)\)?$/)).find((m) => m && !m[1].startsWith('node:'));
  if (frame) frame[1] = local(frame[1]);
  const root = path.join(modules, pkg) + path.sep;
  const header = stderr.match(/^((?:file:\/\/)?\/.*?):(\d+)\n/);
  if (header) header[1] = local(header[1]);
  let place = header && header[1].startsWith(root) ? header : frame;
  const minified = place && place[1].startsWith(root) && Number(place[2]) === 1 && fs.readFileSync(place[1], 'utf8').split('\n')[0].length > 1000;
  if (minified) place = place === frame || local(place[1]) === frame[1] ? unminify(root, place[1], 1, Number(frame[3])) : null;
  // Only errors a statement of the package throws or hands on: a TypeError
  // V8 raises itself (`x.split is not a function`) has no site.
  const source = place && place[1].startsWith(root) ? (fs.readFileSync(place[1], 'utf8').split('\n')[place[2] - 1] || '') : '';
  const thrown = /\bthrow\b|reject\(|\bnew \w*(Error|Exception)\b|\bnew ERR_[A-Z0-9_]+\(/.test(source);
  // Node's header above an error an ES module throws names the line the
  // error was made on, as its stack does (`const err = new Error(…)`),
  // not the `throw err` a few lines below, which the header of CommonJS
  // code names: the statement is that throw.
  if (place && place[1].startsWith(root) && !/\bthrow\b/.test(source)) {
    const made = source.match(/^\s*(?:(?:const|let|var)\s+)?([\w$]+)\s*=\s*new\s/);
    const below = made ? fs.readFileSync(place[1], 'utf8').split('\n').slice(Number(place[2]), Number(place[2]) + 8) : [];
    const name = made ? made[1].replace(/\$/g, '\\$') : '';
    const k = below.findIndex((l) => new RegExp(`^\\s*throw\\s+${name}\\s*;?\\s*$`).test(l));
    if (k >= 0) place = [null, place[1], String(Number(place[2]) + k + 1)];
  }
  if (r.status === 0 || !frame || !frame[1].startsWith(root) || !place || !place[1].startsWith(root) || !thrown) {
    process.stderr.write(`left out ${pkg}: ${code}: ${r.status === 0 ? 'no error' : minified && !place ? 'minified, no source map names the statement' : (stderr.split('\n').find((l) => /Error|Exception/.test(l)) || 'no frame').trim()}\n`);
    continue;
  }
  // Node prints the error thrown uncaught as `file:line`, source, caret,
  // blank, then the error; the stack starts at the error's line.
  const lines = stderr.split('\n');
  const at = lines.findIndex((l) => /^\s+at /.test(l));
  // The error's line follows the header's caret and an empty line (the
  // caret's line is blank under a minified line too long to show). An
  // error thrown out of an ES module's promise has node's own place as
  // its header (`node:internal/modules/run_main:123`).
  // The header may be any of node's own files (`node:events:502` above an
  // 'error' event no listener took), and the blank line after its caret may
  // be missing.
  let start = 0;
  if (header || /^node:[\w/]+(\.\w+)?:\d+\n/.test(stderr)) {
    const caret = lines.findIndex((l) => /^\s*\^+\s*$/.test(l));
    start = caret >= 0 && caret < 4 ? caret + 1 + (lines[caret + 1] === '') : lines.findIndex((l) => l === '') + 1;
  }
  out.push({
    pkg,
    code,
    file: path.relative(path.join(modules, pkg), place[1]).split(path.sep).join('/'),
    line: Number(place[2]),
    stack: stderr.replace(/\nNode\.js v[\d.]+\s*$/, '\n'),
    // Node's header names a statement that throws again an error made
    // elsewhere (`throw e` in a catch, `throw doc.errors[0]`): where it was
    // first thrown, which a stack without the header points to, is not
    // on record here. The header's caret stands under the statement: a
    // line holding more than it (`else throw e;`, Babel's one-line
    // iterator helper `… finally { if (u) throw o; } …`) is read from there.
    rethrow: /^\{?\s*throw\s+[\w$.]+(\[\d+\])?\s*;?\s*\}?$/.test(source.trim()) || thrownAgainAtCaret(stderr, header),
    message: lines.slice(start, at).join('\n'),
  });
}
for (const c of out) process.stdout.write(JSON.stringify(c) + '\n');
process.stderr.write(`${out.length} of ${cases.length} cases kept\n`);
