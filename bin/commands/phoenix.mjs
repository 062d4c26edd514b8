// create-table: a design's Phoenix primary key as the CREATE TABLE statement that makes it
// (the engine's printCreateTable; a .sql <design> is read by its parseCreateTable).
import * as api from '../../pkg/node/index.js';
import { engine } from '../lib/errors.mjs';
import { out } from '../lib/format.mjs';
import { loadDesign } from '../lib/io.mjs';

export async function createTable(pos, opt) {
  const design = await loadDesign(pos[0]);
  const sql = engine(() => api.printCreateTable(design));
  out(opt, { sql }, () => sql);
}
