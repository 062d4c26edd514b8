// The key editor's CodeMirror 6 (npm packages, exact versions in package.json) as one ES
// module: www/pkg/codemirror.js, beside the wasm glue (www/pkg/ is build output). The page
// imports it lazily (www/views/key-editor.js), after the first render, so it is not part of the
// first load; scripts/build-page.mjs keeps it out of page.js and minifies it like every module.
// Usage: node scripts/build-editor.mjs
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
await build({
  absWorkingDir: ROOT,
  entryPoints: ['scripts/editor/codemirror.mjs'],
  bundle: true,
  format: 'esm',
  outfile: 'www/pkg/codemirror.js',
  logLevel: 'warning',
  legalComments: 'eof',
});
