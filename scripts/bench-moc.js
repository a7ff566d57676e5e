#!/usr/bin/env node
// Times moc's own interpreter (`mo.run` of the pinned npm package `motoko`) on Motoko
// files: prints one JSON line per file {"file", "ms", "stdout", "error"} (best of N runs).
// Used by benches/script.rs to compare mo-mem's interpreter with moc's in one run.
// Usage: node --stack-size=50000 scripts/bench-moc.js RUNS FILE...
'use strict';
const fs = require('fs');
const path = require('path');
const mo = require('motoko');
mo.loadPackage(require('motoko/packages/latest/core.json'));
const runs = Number(process.argv[2]) || 3;
for (const file of process.argv.slice(3)) {
  const name = path.basename(file);
  mo.write(name, fs.readFileSync(file, 'utf8'));
  let best = Infinity;
  let r = null;
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    r = mo.run(name);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (ms < best) best = ms;
  }
  console.log(JSON.stringify({ file: name, ms: best, stdout: r.stdout, error: r.stderr }));
}
