// The reference for the JavaScript frontend's extraction test: every
// `throw` statement of the JavaScript and TypeScript files under a folder,
// found by @babel/parser (a devDependency in package.json).
//
// Usage: node babel_throws.js NODE_MODULES FOLDER
// Prints one JSON object: {"<path relative to FOLDER>": [line, …], …}, the
// lines of each file's throw statements in order. Files babel cannot parse
// are listed under "unparsed" and left out. Nested node_modules and
// declaration files (.d.ts) and minified bundles (.min.js) are skipped, as
// errdex skips them.
'use strict';
const fs = require('fs');
const path = require('path');

const babel = require(path.join(path.resolve(process.argv[2]), '@babel/parser'));
const root = path.resolve(process.argv[3]);

function* files(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== '.git') yield* files(p);
    } else if (e.isFile() && /\.(js|mjs|cjs|jsx|ts|mts|cts|tsx)$/.test(e.name) && !/\.d\.[mc]?ts$/.test(e.name) && !/\.min\.[mc]?js$/.test(e.name)) {
      yield p;
    }
  }
}

const out = { unparsed: [] };
for (const file of files(root)) {
  const rel = path.relative(root, file).split(path.sep).join('/');
  const ts = /\.[mc]?tsx?$/.test(file);
  let ast;
  try {
    ast = babel.parse(fs.readFileSync(file, 'utf8'), {
      sourceType: 'unambiguous',
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
      errorRecovery: true,
      plugins: ts ? ['typescript', ...(file.endsWith('x') ? ['jsx'] : [])] : ['jsx'],
    });
  } catch (e) {
    out.unparsed.push(rel);
    continue;
  }
  const lines = [];
  // Iterative walk: real files nest deeply.
  const stack = [ast.program];
  while (stack.length) {
    const n = stack.pop();
    if (!n || typeof n.type !== 'string') continue;
    if (n.type === 'ThrowStatement') lines.push(n.loc.start.line);
    for (const k of Object.keys(n)) {
      if (k === 'loc' || k === 'leadingComments' || k === 'trailingComments' || k === 'extra') continue;
      const v = n[k];
      if (Array.isArray(v)) for (const c of v) { if (c && typeof c.type === 'string') stack.push(c); }
      else if (v && typeof v.type === 'string') stack.push(v);
    }
  }
  if (lines.length) out[rel] = lines.sort((a, b) => a - b);
}
process.stdout.write(JSON.stringify(out) + '\n');
