#!/usr/bin/env node
// Runs the native benches (benches/keyspec.rs, benches/analyze.rs, benches/advise.rs,
// benches/life.rs) and keeps what they print as target/bench/{keyspec,analyze,advise,life}.json,
// for scripts/bench-table.mjs.
//   node scripts/bench-native.mjs [keyspec] [analyze] [advise] [life]     (all when none is named)
// Method and decisions: docs/bench-keyspec.md, docs/bench-analyze.md, docs/advise.md, docs/life.md.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

const ROOT = new URL('..', import.meta.url).pathname;
const which = process.argv.slice(2);
const want = name => which.length === 0 || which.includes(name);
const run = args => {
  console.error(`[bench-native] cargo ${args.join(' ')}`);
  const out = execFileSync('cargo', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  process.stdout.write(out);
  return out;
};
const meta = command => ({
  command,
  date: new Date().toISOString().slice(0, 10),
  commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim(),
  machine: `${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length}`,
  rustc: execFileSync('rustc', ['--version'], { encoding: 'utf8' }).trim(),
});
const save = (name, result) => {
  mkdirSync(new URL('../target/bench/', import.meta.url), { recursive: true });
  writeFileSync(new URL(`../target/bench/${name}.json`, import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
};
const num = s => (s === undefined || s.trim() === '' ? null : Number.parseFloat(s));

if (want('keyspec')) {
  // | preset | 5.53 M | 181 | 201 | 1.03× |   (the last two only for designs with MD5 segments)
  const rows = run(['bench', '--bench', 'keyspec'])
    .split('\n')
    .map(l => l.match(/^\| (\S+) \| ([\d.]+) M \| (\d+) \| ([\d.]*) \| ([\d.]*)×? \|$/))
    .filter(Boolean)
    .map(([, preset, mkeys, ns, md5Ns, ratio]) => ({
      preset,
      keysPerSec: num(mkeys) * 1e6,
      nsPerKey: num(ns),
      md5Ns: num(md5Ns),
      md5Ratio: num(ratio),
    }));
  if (rows.length === 0) throw new Error('cargo bench --bench keyspec printed no preset rows');
  save('keyspec', { bench: 'keyspec', ...meta('cargo bench --bench keyspec'), rows });
}

if (want('analyze')) {
  // String.hashCode bucket   10000000 records: median 1.000 s, 10.00 M records/s (JVM reference 9 M/s)
  const rows = [
    ...run(['bench', '--bench', 'analyze']).matchAll(
      /^(.+?)\s+(\d+) records: median ([\d.]+) s, ([\d.]+) M records\/s \(JVM reference ([\d.]+) M\/s\)$/gm,
    ),
  ].map(([, design, records, s, mps, jvm]) => ({
    design,
    records: Number(records),
    medianS: num(s),
    mps: num(mps),
    jvmMps: num(jvm),
  }));
  if (rows.length === 0) throw new Error('cargo bench --bench analyze printed no results');
  // rss: 1000000 records, 64 regions, 5.59 M records/s, peak RSS 4380 kB
  const rss = [1_000_000, 100_000_000].map(n => {
    const x = run(['bench', '--bench', 'analyze', '--', 'rss', String(n)]).match(/peak RSS (\d+) kB/);
    if (!x) throw new Error(`cargo bench --bench analyze -- rss ${n} printed no peak RSS`);
    return { records: n, peakKb: Number(x[1]) };
  });
  save('analyze', {
    bench: 'analyze',
    ...meta('cargo bench --bench analyze; cargo bench --bench analyze -- rss N'),
    rows,
    rss,
  });
}

if (want('advise')) {
  // advise sweep: seed000-vehicle, 55 candidates (0 failed) x 200000 records, 2 cores, median of 3
  // | 1 | 3.37 M | 1.00x |   | 2 | 6.62 M | 1.97x |   CPU time: … ; load average 0.5
  const out = run(['bench', '--bench', 'advise']);
  const head = out.match(/^advise sweep: (\S+), (\d+) candidates \((\d+) failed\) x (\d+) records, (\d+) cores/m);
  const rows = [...out.matchAll(/^\| (\d+) \| ([\d.]+) M \| ([\d.]+)x \|$/gm)];
  if (!head || rows.length < 2) throw new Error('cargo bench --bench advise printed no sweep');
  const load = out.match(/load average ([\d.]+)/);
  save('advise', {
    bench: 'advise',
    ...meta('cargo bench --bench advise'),
    preset: head[1],
    candidates: Number(head[2]),
    records: Number(head[4]),
    cores: Number(head[5]),
    oneThread: num(rows[0][2]) * 1e6,
    allCores: num(rows[1][2]) * 1e6,
    speedup: num(rows[1][3]),
    loadAverage: load ? num(load[1]) : null,
  });
}

if (want('life')) {
  // hashed key, 20 servers: 12 months, 2048 regions at the end on 20 servers, 0.888 s; 13.5 months/s, 1.13e7 region-hours/s
  const out = run(['bench', '--bench', 'life']);
  const rows = [
    ...out.matchAll(
      /^(.+?): (\d+) months, (\d+) regions at the end on (\d+) servers, ([\d.]+) s; ([\d.]+) months\/s, ([\d.e+-]+) region-hours\/s$/gm,
    ),
  ].map(([, what, months, regions, servers, s, mps, rhps]) => ({
    what,
    months: Number(months),
    regions: Number(regions),
    servers: Number(servers),
    medianS: num(s),
    monthsPerS: num(mps),
    regionHoursPerS: num(rhps),
  }));
  if (rows.length === 0) throw new Error('cargo bench --bench life printed no results');
  let loadAverage = null;
  try {
    loadAverage = num(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  } catch {}
  save('life', { bench: 'life', ...meta('cargo bench --bench life'), rows, loadAverage });
}
