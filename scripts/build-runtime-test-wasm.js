#!/usr/bin/env node
// Compiles tests/data/runtime/NAME.mo in MODE ('eop' or a classical GC name) to OUTFILE with the
// pinned compiler. One mode per process (gcFlags are process-global).
// Usage: node scripts/build-runtime-test-wasm.js NAME MODE OUTFILE
'use strict';
const fs = require('fs');
const path = require('path');
const [name, mode, out] = process.argv.slice(2);
if (!name || !mode || !out) {
  console.error('usage: build-runtime-test-wasm.js NAME MODE OUTFILE');
  process.exit(2);
}
const mo = require('motoko');
mo.loadPackage(require('motoko/packages/latest/core.json'));
if (mode !== 'eop') {
  mo.compiler.gcFlags('classicOP');
  mo.compiler.gcFlags(mode === 'compacting' ? 'marking' : mode);
}
const src = fs.readFileSync(path.join(__dirname, '..', 'tests', 'data', 'runtime', name + '.mo'), 'utf8');
mo.write('/main.mo', src);
let result;
try {
  result = mo.wasm('/main.mo', 'ic');
} catch (e) {
  console.error(String(e && e.message ? e.message : e));
  process.exit(1);
}
fs.writeFileSync(out, Buffer.from(result.wasm));
