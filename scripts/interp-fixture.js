#!/usr/bin/env node
// Run a fixture's scenario in moc's interpreter (mo.run) and print its dump.
//
//   node scripts/interp-fixture.js NAME [SCENARIO_JSON]
//
// SCENARIO_JSON (optional) replaces the fixture's scenario.json, e.g. with smaller sizes:
// the interpreter is slow and its stack is small.
//
// A quick check that a fixture's init, scenario calls and `dump` run without trapping,
// before compiling it in every mode. The interpreter's debug_show differs from a compiled
// canister's in places (it does not escape Text, it prints NaN payloads), so its output is
// for reading, not the ground truth: that is `expected.json`, made from compiled canisters.
'use strict';

const fs = require('fs');
const path = require('path');
const mo = require('motoko');

const ROOT = path.resolve(__dirname, '..');

function die(msg) {
  process.stderr.write(`interp-fixture: ${msg}\n`);
  process.exit(1);
}

/// Motoko source of one scenario argument.
function argSource(a) {
  const [kind, v] = Object.entries(a)[0] || [];
  switch (kind) {
    case 'nat':
    case 'int':
    case 'nat64':
      return `(${v} : ${kind === 'nat' ? 'Nat' : kind === 'int' ? 'Int' : 'Nat64'})`;
    case 'bool':
      return v ? 'true' : 'false';
    case 'text':
      return JSON.stringify(v).replace(/\\u([0-9a-fA-F]{4})/g, '\\u{$1}');
    default:
      return die(`unsupported argument ${JSON.stringify(a)}`);
  }
}

function main() {
  const name = process.argv[2];
  if (!name || !/^[a-z0-9_-]+$/.test(name)) die('usage: interp-fixture.js NAME [SCENARIO_JSON]');
  const dir = path.join(ROOT, 'motoko', 'fixtures', name);
  const src = fs.readFileSync(path.join(dir, 'main.mo'), 'utf8');
  const scenarioFile = process.argv[3] || path.join(dir, 'scenario.json');
  const scenario = JSON.parse(fs.readFileSync(scenarioFile, 'utf8'));
  const m = src.match(/persistent actor (\w+)/);
  if (!m) die('main.mo has no named `persistent actor`');
  if ((scenario.init_args || []).length) die('init arguments are not supported in the interpreter check');
  const calls = (scenario.calls || [])
    .map((c) => `    await ${m[1]}.${c.method}(${(c.args || []).map(argSource).join(', ')});`)
    .join('\n');
  const driver = `import __Debug "mo:core/Debug";
${src.replace(/;\s*$/, '')};
ignore (async {
${calls}
    for ((k, v) in (await ${m[1]}.dump()).vals()) { __Debug.print(k # " = " # v) };
});
`;
  mo.loadPackage(require('motoko/packages/latest/core.json'));
  for (const f of fs.readdirSync(dir)) {
    if (f.endsWith('.mo') && f !== 'main.mo') mo.write(`${name}/${f}`, fs.readFileSync(path.join(dir, f), 'utf8'));
  }
  mo.write(`${name}/__interp.mo`, driver);
  const r = mo.run(`${name}/__interp.mo`);
  process.stdout.write(r.stdout);
  if (r.stderr) process.stderr.write(r.stderr);
  if (r.result && r.result.error) die(`${name}: ${JSON.stringify(r.result.error)}`);
  if (!/ = /.test(r.stdout)) die(`${name}: dump printed nothing`);
}

main();
