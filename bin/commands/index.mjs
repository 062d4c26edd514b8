// Every command, by name: each takes (<arguments>, options) and returns its exit code (undefined: 0).
export { advise } from './advise.mjs';
export { analyze, compare } from './analyze.mjs';
export { check } from './check.mjs';
export { decode, encode, layout } from './keys.mjs';
export { life } from './life.mjs';
export { examples, lint } from './lint.mjs';
export { observe } from './observe.mjs';
export { createTable as 'create-table' } from './phoenix.mjs';
export { profile } from './profile.mjs';
export { reads } from './reads.mjs';
export { regions } from './regions.mjs';
export { rekey } from './rekey.mjs';
export { presets, splits } from './splits.mjs';
export { verify } from './verify.mjs';
export { watch } from './watch.mjs';
