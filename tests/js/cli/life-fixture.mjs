// The CLI life tests' shared table: a time-led key under a 30-day TTL, run for 3 months.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../helpers.mjs';

const BIN = path.join(ROOT, 'bin/rowkey-lab.mjs');

/** The CLI as a whole process. */
export const run = args => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

/** A time-led key writing about 1 GiB an hour (300 cells/s of 1 KB). */
export const TIME_LED = {
  v: 1,
  fields: [
    { name: 'id', type: 'string', generator: { kind: 'uuid', compact: true } },
    { name: 't', type: 'timestamp', generator: { kind: 'clock' } },
  ],
  key: 'time(t, "yyMMddHHmmss") + ":" + id',
  workload: { records: 20000, writeRate: 300, valueSize: 1000 },
};

export const MONTHS = ['--months', '3', '--ttl', '30d'];
