// Reading what the user names: a design (file or preset id), a table's regions (--regions FILE).
// FILE - is stdin. Both are read as checked text up to their size cap (input.mjs); rows
// (--records FILE) are read as a stream (records.mjs).
import { existsSync } from 'node:fs';
import * as api from '../../pkg/node/index.js';
import { CliError, EXIT } from './errors.mjs';
import { LIMITS, readText } from './input.mjs';
import { didYouMean } from './suggest.mjs';

/**
 * `<design>`: a design document's JSON file, a Phoenix CREATE TABLE statement (a `.sql` file,
 * read by the engine's parseCreateTable), or a preset id.
 */
export async function loadDesign(arg) {
  if (!arg) throw new CliError(EXIT.USAGE, 'missing <design> (a JSON file, a .sql CREATE TABLE file or a preset id)');
  if (existsSync(arg)) {
    const text = await readText(arg, LIMITS.design);
    if (/\.sql$/i.test(arg)) {
      try {
        return api.parseCreateTable(text);
      } catch (e) {
        const where = e.line ? `${arg}:${e.line}:${e.column}` : arg;
        throw new CliError(EXIT.INPUT, `${where}: ${e.reason ?? e.message}`);
      }
    }
    try {
      return JSON.parse(text);
    } catch (e) {
      // The engine's JSON reader says where (line and column); JSON.parse does not.
      let why = e.message;
      try {
        api.validateDesign(text);
      } catch (located) {
        why = located.message;
      }
      throw new CliError(EXIT.INPUT, `${arg}: ${why}`);
    }
  }
  // (by id: the list a person scans for a name, whatever order the page groups them in)
  const ids = api
    .listPresets()
    .map(p => p.id)
    .sort();
  if (ids.includes(arg)) return api.getPreset(arg);
  const hint = didYouMean(arg, ids);
  throw new CliError(
    EXIT.INPUT,
    hint ? `${arg}: no such file or preset${hint}` : `${arg}: no such file or preset (presets: ${ids.join(', ')})`,
  );
}

/**
 * `--regions FILE [--table T]` read by the engine (`readRegions`): `{source, table, regions,
 * presplit, verified, notes}`, or undefined without --regions. FILE - is stdin.
 */
export async function loadRegions(file, tableName) {
  if (file === undefined) {
    if (tableName !== undefined) throw new CliError(EXIT.USAGE, '--table goes with --regions FILE');
    return undefined;
  }
  const text = await readText(file, LIMITS.regions);
  const name = file === '-' ? 'stdin' : file;
  try {
    return api.readRegions(text, tableName);
  } catch (e) {
    const where = e.line ? `${name}:${e.line}:${e.column}` : name;
    throw new CliError(EXIT.INPUT, `${where}: ${e.reason ?? e.message}${e.path === 'table' ? ' (--table T)' : ''}`);
  }
}
