// scratch: compile /tmp/hp/main.mo in one mode (argv[2]) -> /tmp/hp/<mode>.wasm + .stable
const mo = require('motoko');
mo.loadPackage(require('motoko/packages/latest/core.json'));
const mode = process.argv[2];
const fs = require('fs');
if (mode === 'eop') mo.compiler.gcFlags('enhancedOP');
else { mo.compiler.gcFlags('classicOP'); if (mode !== 'copying') mo.compiler.gcFlags(mode); }
mo.write('/main.mo', fs.readFileSync(process.argv[3] || '/tmp/hp/main.mo', 'utf8'));
let out; try { out = mo.wasm('/main.mo', 'ic'); } catch (e) { console.error(String(e).slice(0, 2000)); process.exit(1); }
fs.writeFileSync(`/tmp/hp/${mode}.wasm`, out.wasm);
fs.writeFileSync(`/tmp/hp/${mode}.stable`, out.stable || '');
console.log(mode, out.wasm.length);
