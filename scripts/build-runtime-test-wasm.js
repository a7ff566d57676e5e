#!/usr/bin/env node
// Compiles tests/data/runtime/NAME.mo in MODE ('eop' or a classical GC name) to OUTFILE with the
// pinned compiler, or with PACKAGE (an older npm `motoko` installed under another name in
// scripts/package.json, e.g. `motoko-0-14`). One mode per process (gcFlags are process-global).
// Usage: node scripts/build-runtime-test-wasm.js NAME MODE OUTFILE [PACKAGE]
'use strict';
const fs = require('fs');
const path = require('path');
const [name, mode, out, pkg = 'motoko'] = process.argv.slice(2);
if (!name || !mode || !out) {
  console.error('usage: build-runtime-test-wasm.js NAME MODE OUTFILE');
  process.exit(2);
}
const mo = require(pkg);
const core = path.join(path.dirname(require.resolve(pkg)), 'packages', 'latest', 'core.json');
if (fs.existsSync(core)) mo.loadPackage(require(core));
if (mode !== 'eop') {
  mo.compiler.gcFlags('classicOP');
  mo.compiler.gcFlags(mode === 'compacting' ? 'marking' : mode);
} else {
  // the default of moc >= 0.15; moc 0.14 (npm 3.11-3.13) needs it said
  mo.compiler.gcFlags('enhancedOP');
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
