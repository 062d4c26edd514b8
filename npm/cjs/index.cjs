// CommonJS entry (pkg/cjs/index.cjs). Node >= 20.19 / 22.12 can require() ES modules without
// top-level await; the ESM Node entry has none, so this simply re-exports it (a wrapper that
// imported it would need top-level await).
'use strict';
module.exports = require('../node/index.js');
