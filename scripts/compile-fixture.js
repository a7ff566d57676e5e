#!/usr/bin/env node
// Compile one fixture canister in one persistence/GC mode with the pinned Motoko compiler.
//
//   node scripts/compile-fixture.js NAME MODE OUTFILE
//
// NAME: a folder under motoko/fixtures/ holding main.mo (and any other .mo files it imports).
// MODE: eop | copying | compacting | generational | incremental, optionally with `-forcegc`.
// OUTFILE: where the wasm goes (written atomically: temp file + rename).
//
// The compiler is the pinned npm `motoko`, unless the fixture's scenario.json names another
// one in `"compiler"`: an npm alias installed in scripts/package.json (`motoko-0-7` =
// npm `motoko` 3.1.1, ...). Such an older compiler loads its own bundled `base` package for
// `mo:base` (and `mo:core` where it bundles one); before npm motoko 3.11 its JS API predates
// `classicOP`/`enhancedOP` (classical only), and npm motoko 3.8.2 - 3.10.x selects no GC.
// The environment variable MOTOKO_PACKAGE_DIR (an extracted npm `motoko` package, its
// dependencies on NODE_PATH) replaces the compiler: scripts/check-releases uses it.
//
// The compiler's gcFlags are process-global, so this script compiles exactly one mode per
// process. The `core` package bundled with the compiler is loaded as `mo:core`; fixtures that
// import `mo:base` also get the `base` package bundled with an older release of the npm `motoko`
// package (pinned in scripts/package.json as `motoko-base`; only its base.json is used, the
// compiler stays the pinned one). Any compile
// error aborts with the diagnostics; warnings are printed but do not fail the build.
// The produced module is then checked to really be what MODE claims (memory64 and the EOP
// section for eop; 32-bit memory and the right GC entry point for the classical GCs; the
// direct GC call for -forcegc), so a silently ignored flag cannot produce a wrong fixture.
'use strict';

const fs = require('fs');
const path = require('path');
/// The npm package of the compiler (set by main from scenario.json before anything compiles).
let COMPILER = 'motoko';
/// The compiler package's directory (scripts/node_modules/COMPILER, or $MOTOKO_PACKAGE_DIR).
let COMPILER_DIR = null;
let mo = null;
/// `mo:base` (the last `motoko` npm release that bundles it), loaded only when a fixture imports it.
const BASE_PACKAGE = 'motoko-base/packages/latest/base.json';

const ROOT = path.resolve(__dirname, '..');
const FIXTURES = path.join(ROOT, 'motoko', 'fixtures');

/// The classical GCs: mode name -> [gcFlags name, RTS GC function suffix].
const CLASSICAL = {
  copying: ['copying', 'copying'],
  compacting: ['marking', 'compacting'],
  generational: ['generational', 'generational'],
  incremental: ['incremental', 'incremental'],
};
/// Warnings fixtures trigger on purpose (a `var` that is never reassigned is still a MutBox
/// the decoder must read; unused transient state; a `()` variable).
const QUIET_WARNINGS = new Set(['M0244', 'M0194', 'M0239']);
const ALL_GCS = ['copying', 'compacting', 'generational', 'incremental'];

function die(msg) {
  process.stderr.write(`compile-fixture: ${msg}\n`);
  process.exit(1);
}

/// Parses MODE into {base, force}.
function parseMode(mode) {
  const force = mode.endsWith('-forcegc');
  const base = force ? mode.slice(0, -'-forcegc'.length) : mode;
  if (base !== 'eop' && !(base in CLASSICAL)) {
    die(`unknown mode '${mode}' (expected eop|copying|compacting|generational|incremental, optionally -forcegc)`);
  }
  return { base, force };
}

/// Lists every file under dir (relative paths, sorted).
function listFiles(dir, prefix = '') {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(path.join(dir, entry.name), rel));
    else if (entry.name.endsWith('.mo')) out.push(rel);
  }
  return out;
}

/// The npm `motoko` package version of the compiler, as [major, minor, patch].
function packageVersion() {
  const v = require(path.join(COMPILER_DIR, 'package.json')).version;
  return v.split('.').map((n) => parseInt(n, 10));
}

/// Whether `a` (a [major, minor, patch]) is at least `b`.
function atLeast(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
}

/// Sets the process-global compiler flags for the mode.
function setFlags({ base, force }) {
  const v = packageVersion();
  // npm motoko >= 3.11 (moc >= 0.14.0) has the `classicOP`/`enhancedOP` flags; before, the JS
  // API builds classical modules only. npm motoko 3.8.2 - 3.10.x (moc 0.13.x) selects no GC
  // at all (only `force`/`scheduling`: src/js/common.ml at 0.13.2), so its modules use the
  // default GC, copying.
  const hasOP = atLeast(v, [3, 11, 0]);
  const noGcChoice = atLeast(v, [3, 8, 2]) && !hasOP;
  if (base === 'eop') {
    if (!hasOP) die(`compiler ${COMPILER} (npm motoko ${v.join('.')}) cannot build mode eop`);
    mo.compiler.gcFlags('enhancedOP');
  } else {
    if (hasOP) mo.compiler.gcFlags('classicOP');
    if (noGcChoice) {
      if (base !== 'copying') die(`compiler ${COMPILER} (npm motoko ${v.join('.')}) selects no GC: copying only`);
    } else {
      mo.compiler.gcFlags(CLASSICAL[base][0]);
    }
  }
  if (force) mo.compiler.gcFlags('force');
}

/// Minimal reader of the wasm facts we check: memory flags, custom section names,
/// function names, imported function count and function bodies.
function inspectWasm(bytes) {
  const w = Buffer.from(bytes);
  if (w.length < 8 || w.readUInt32LE(0) !== 0x6d736100) die('output is not a wasm module');
  let p = 8;
  const need = (n) => {
    if (p + n > w.length) die('truncated wasm module');
  };
  const leb = () => {
    let r = 0;
    let s = 0;
    let b;
    do {
      need(1);
      b = w[p++];
      r += (b & 0x7f) * 2 ** s;
      s += 7;
    } while (b & 0x80);
    return r;
  };
  const name = () => {
    const l = leb();
    need(l);
    const s = w.toString('utf8', p, p + l);
    p += l;
    return s;
  };
  const info = { memoryFlags: [], custom: [], names: new Map(), importedFuncs: 0, bodies: [], exports: new Map() };
  while (p < w.length) {
    const id = w[p++];
    const len = leb();
    const end = p + len;
    need(len);
    if (id === 0) {
      const nm = name();
      info.custom.push(nm);
      if (nm === 'name') {
        while (p < end) {
          const sid = w[p++];
          const sl = leb();
          const se = p + sl;
          if (sid === 1) {
            const n = leb();
            for (let i = 0; i < n; i++) {
              const idx = leb();
              info.names.set(idx, name());
            }
          }
          p = se;
        }
      }
    } else if (id === 2) {
      const n = leb();
      for (let i = 0; i < n; i++) {
        name();
        name();
        const kind = w[p++];
        if (kind === 0) {
          leb();
          info.importedFuncs++;
        } else if (kind === 1) {
          p++;
          const f = leb();
          leb();
          if (f & 1) leb();
        } else if (kind === 2) {
          const f = leb();
          info.memoryFlags.push(f);
          leb();
          if (f & 1) leb();
        } else if (kind === 3) {
          p += 2;
        } else die(`unknown import kind ${kind}`);
      }
    } else if (id === 5) {
      const n = leb();
      for (let i = 0; i < n; i++) {
        const f = leb();
        info.memoryFlags.push(f);
        leb();
        if (f & 1) leb();
      }
    } else if (id === 7) {
      const n = leb();
      for (let i = 0; i < n; i++) {
        const nm = name();
        const kind = w[p++];
        const idx = leb();
        if (kind === 0) info.exports.set(nm, idx);
      }
    } else if (id === 10) {
      const n = leb();
      for (let i = 0; i < n; i++) {
        const l = leb();
        need(l);
        info.bodies.push(w.subarray(p, p + l));
        p += l;
      }
    }
    p = end;
  }
  return info;
}

function encLeb(v) {
  const o = [];
  do {
    let b = v & 0x7f;
    v = Math.floor(v / 128);
    if (v) b |= 0x80;
    o.push(b);
  } while (v);
  return Buffer.from(o);
}

/// The names of the RTS GC functions whose `call` appears in the body of function `fn`.
function gcCallsFrom(info, fnIndex) {
  const body = info.bodies[fnIndex - info.importedFuncs];
  if (!body) die(`function ${fnIndex} has no body`);
  const byName = new Map();
  for (const [idx, nm] of info.names) byName.set(nm, idx);
  const called = [];
  for (const gc of ALL_GCS) {
    for (const nm of [`schedule_${gc}_gc`, `${gc}_gc`]) {
      if (!byName.has(nm)) continue;
      const pat = Buffer.concat([Buffer.from([0x10]), encLeb(byName.get(nm))]);
      if (body.indexOf(pat) >= 0) called.push(nm);
    }
  }
  return called;
}

/// Checks the compiled module against the mode; returns a one-line summary.
function verify(bytes, { base, force }) {
  const info = inspectWasm(bytes);
  const mem64 = info.memoryFlags.length === 1 && (info.memoryFlags[0] & 4) !== 0;
  const eopSection = info.custom.includes('icp:private enhanced-orthogonal-persistence');
  if (info.memoryFlags.length !== 1) die(`expected one memory, found ${info.memoryFlags.length}`);
  if (info.names.size === 0) die('module has no function names (name section missing)');
  const wantGc = base === 'eop' ? 'incremental' : CLASSICAL[base][1];
  if (base === 'eop') {
    if (!mem64 || !eopSection) die(`mode eop produced a non-EOP module (memory64=${mem64}, eop section=${eopSection})`);
  } else if (mem64 || eopSection) {
    die(`classical mode ${base} produced an EOP module (memory64=${mem64}, eop section=${eopSection})`);
  }
  const helper = [...info.names].find(([, nm]) => nm === '__motoko_async_helper');
  if (!helper) die('module has no __motoko_async_helper function');
  const calls = gcCallsFrom(info, helper[0]);
  const want = force ? `${wantGc}_gc` : `schedule_${wantGc}_gc`;
  if (calls.length !== 1 || calls[0] !== want) {
    die(`mode ${base}${force ? '-forcegc' : ''}: __motoko_async_helper should call ${want}, calls [${calls.join(', ')}]`);
  }
  return `${mem64 ? 'memory64' : 'memory32'}, gc ${wantGc}${force ? ' (forced)' : ''}`;
}

/// The JS stack (V8's --stack-size, in KiB) the compilers need: moc.js of npm motoko 3.13.0 (moc
/// 0.14.10+) overflows node's default (984 KiB) compiling the `legacy` canister for EOP. Well
/// inside the main thread's usual 8 MiB.
const STACK_KIB = 4000;

/// Runs this script again in a node with a larger stack, unless this is that node; returns
/// whether it did (its exit status is then this process's).
function reexecWithStack() {
  if (process.execArgv.some((a) => a.startsWith('--stack-size'))) return false;
  const { spawnSync } = require('child_process');
  const r = spawnSync(process.execPath, [`--stack-size=${STACK_KIB}`, ...process.execArgv, __filename, ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  process.exitCode = r.status === null ? 1 : r.status;
  return true;
}

function main() {
  if (reexecWithStack()) return;
  const [name, mode, outFile] = process.argv.slice(2);
  if (!name || !mode || !outFile || process.argv.length !== 5) {
    die('usage: compile-fixture.js NAME MODE OUTFILE');
  }
  if (!/^[a-z0-9_-]+$/.test(name)) die(`bad fixture name '${name}'`);
  const parsed = parseMode(mode);
  const dir = path.join(FIXTURES, name);
  if (!fs.existsSync(path.join(dir, 'main.mo'))) die(`no ${path.relative(ROOT, dir)}/main.mo`);

  const scenario = JSON.parse(fs.readFileSync(path.join(dir, 'scenario.json'), 'utf8'));
  if (scenario.compiler !== undefined) {
    if (!/^motoko(-[0-9a-z-]+)?$/.test(scenario.compiler)) die(`bad compiler '${scenario.compiler}' in scenario.json`);
    COMPILER = scenario.compiler;
  }
  COMPILER_DIR = path.join(__dirname, 'node_modules', COMPILER);
  // scripts/check-releases: an extracted npm `motoko` release, in place of the scenario's.
  if (process.env.MOTOKO_PACKAGE_DIR) {
    COMPILER_DIR = path.resolve(process.env.MOTOKO_PACKAGE_DIR);
    COMPILER = `motoko@${require(path.join(COMPILER_DIR, 'package.json')).version}`;
  }
  mo = require(COMPILER_DIR);
  const bundled = (pkg) => {
    const f = path.join(COMPILER_DIR, 'packages', 'latest', `${pkg}.json`);
    return fs.existsSync(f) ? require(f) : null;
  };
  setFlags(parsed);
  const core = bundled('core');
  if (core) mo.loadPackage(core);
  let usesBase = false;
  for (const rel of listFiles(dir)) {
    const source = fs.readFileSync(path.join(dir, rel), 'utf8');
    usesBase = usesBase || source.includes('"mo:base/');
    mo.write(`${name}/${rel}`, source);
  }
  if (usesBase) mo.loadPackage(COMPILER === 'motoko' && !process.env.MOTOKO_PACKAGE_DIR ? require(BASE_PACKAGE) : bundled('base') || die(`${COMPILER} bundles no base package`));
  const main = `${name}/main.mo`;
  const diags = mo.check(main) || [];
  let errors = 0;
  let quiet = 0;
  for (const d of diags) {
    if (d.severity !== 1 && QUIET_WARNINGS.has(d.code)) {
      quiet++;
      continue;
    }
    const where = d.range ? `${d.range.start.line + 1}:${d.range.start.character + 1}` : '?';
    const sev = d.severity === 1 ? 'error' : 'warning';
    if (d.severity === 1) errors++;
    process.stderr.write(`motoko/fixtures/${d.source || main}:${where}: ${sev} ${d.code || ''}: ${d.message}\n`);
  }
  if (quiet > 0) process.stderr.write(`compile-fixture: ${name}: ${quiet} expected warning(s) (${[...QUIET_WARNINGS].join(', ')}) not shown\n`);
  if (errors > 0) die(`${name} (${mode}): ${errors} compile error(s)`);
  let result;
  try {
    result = mo.wasm(main, 'ic');
  } catch (err) {
    die(`${name} (${mode}): compile failed: ${err.message}`);
  }
  const summary = verify(result.wasm, parsed);
  const tmp = `${outFile}.tmp-${process.pid}`;
  fs.mkdirSync(path.dirname(path.resolve(outFile)), { recursive: true });
  fs.writeFileSync(tmp, Buffer.from(result.wasm));
  fs.renameSync(tmp, outFile);
  process.stderr.write(`compile-fixture: ${name} ${mode}: ${result.wasm.length} bytes, ${summary}, moc ${mo.version} (${COMPILER})\n`);
}

main();
