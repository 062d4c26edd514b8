// docs/cli.md is the CLI's --help texts as scripts/cli-doc.mjs writes them: a help text changed
// without the reference (or the reference edited by hand) fails here. --help needs no wasm build.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { cliDoc } from '../../../scripts/cli-doc.mjs';
import { ROOT } from '../helpers.mjs';

test('docs/cli.md is what scripts/cli-doc.mjs writes from the --help texts', () => {
  const have = readFileSync(path.join(ROOT, 'docs/cli.md'), 'utf8');
  assert.equal(have, cliDoc(), 'docs/cli.md is stale: run node scripts/cli-doc.mjs');
});
