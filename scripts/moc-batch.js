#!/usr/bin/env node
// Runs many Motoko programs in moc's own interpreter (the `run` entry of the pinned npm
// package `motoko`, the reference for mo-mem's script engine) in one process.
//
//   node scripts/moc-batch.js < programs.json > outputs.json
//
// Input: a JSON array of {"name": "x.mo", "src": "..."}. Output: a JSON array, in the same
// order, of {"name", "valid", "out"}: `valid` is false when moc rejects the program (a type,
// syntax or import error; `out` then holds the diagnostics) or fails on it (`moc failed: …`);
// otherwise `out` is what scripts/gen-conformance would write: stdout, then the trap line if
// the program trapped.
'use strict';
const fs = require('fs');
const path = require('path');
const mo = require(path.join(__dirname, 'node_modules', 'motoko'));
mo.loadPackage(require(path.join(__dirname, 'node_modules', 'motoko', 'packages', 'latest', 'core.json')));
// `mo:base` too (the base package scripts/gen-conformance loads).
mo.loadPackage(require(path.join(__dirname, 'node_modules', 'motoko-base', 'packages', 'latest', 'base.json')));

const programs = JSON.parse(fs.readFileSync(0, 'utf8'));
const results = programs.map(({ name, src }) => {
  mo.write(name, src);
  let r;
  try {
    r = mo.run(name);
  } catch (e) {
    // moc itself failed on this program (an exception out of its OCaml runtime): it has no
    // answer to compare with, as for a program it rejects
    return { name, valid: false, out: `moc failed: ${e.message || e}` };
  }
  const bad = r.stderr.split('\n').filter((l) => / (type|syntax|import) error/.test(l));
  if (bad.length > 0) return { name, valid: false, out: r.stderr };
  let out = r.stdout;
  for (const e of r.stderr.split('\n').filter((l) => l.includes(': execution error'))) out += e + '\n';
  return { name, valid: true, out };
});
process.stdout.write(JSON.stringify(results));
