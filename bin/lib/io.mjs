// Reading what the user names: a design (file or preset id), a table's regions (--regions FILE),
// rows (--records FILE). FILE - is stdin. Each is read as checked text (input.mjs), a design and
// region text up to their size cap.
import { existsSync } from 'node:fs';
import * as api from '../../pkg/node/index.js';
import { CliError, EXIT } from './errors.mjs';
import { LIMITS, readText } from './input.mjs';
import { didYouMean } from './suggest.mjs';

/** `<design>`: a design document's JSON file, or a preset id. */
export async function loadDesign(arg) {
  if (!arg) throw new CliError(EXIT.USAGE, 'missing <design> (a JSON file or a preset id)');
  if (existsSync(arg)) {
    const text = await readText(arg, LIMITS.design);
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
  const ids = api.listPresets().map(p => p.id);
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

/**
 * `--records FILE`: your own rows, JSON Lines (one `{field: value}` object per line) or one JSON
 * array of them, as `{records, where}`: `where(i)` names record i's place in the file (its line)
 * for error messages. No rows, or a JSON value that is not an array, is an input error.
 */
export async function loadRecords(file) {
  const rows = await readRecords(file);
  if (!Array.isArray(rows.records)) throw new CliError(EXIT.INPUT, `${file}: not a JSON array of records`);
  if (rows.records.length === 0) throw new CliError(EXIT.INPUT, `${file}: no records`);
  return rows;
}

/** The parse behind `loadRecords`: `{records, where}`, `records` being whatever the JSON held. */
async function readRecords(file) {
  // Read whole, without a cap (for now): rows are as many as there are.
  const text = await readText(file, { bytes: Infinity });
  if (/^\s*\[/.test(text)) {
    let all;
    try {
      all = JSON.parse(text);
    } catch (e) {
      throw new CliError(EXIT.INPUT, `${file}: ${e.message}`);
    }
    return { records: all, where: i => `${file}: records[${i}]` };
  }
  const records = [];
  const lines = [];
  text.split('\n').forEach((l, i) => {
    if (!l.trim()) return;
    try {
      records.push(JSON.parse(l));
    } catch (e) {
      throw new CliError(EXIT.INPUT, `${file}:${i + 1}: ${e.message}`);
    }
    lines.push(i + 1);
  });
  return { records, where: i => `${file}:${lines[i]}` };
}
