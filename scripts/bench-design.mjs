// The analyzer benchmark's design: benches/analyze.rs `doc(hash, records)`, verbatim, for the
// scripts that measure the same analysis under Node (bench-node.mjs) and in the page
// (bench-page.mjs) against the native bench binary.
export const telecomDoc = (hash, records) => ({
  v: 1,
  name: `telecom ${hash}`,
  fields: [
    {
      name: 'phone',
      type: 'string',
      generator: { kind: 'phone', prefixes: ['134', '135', '138', '188'], digits: 8, distinct: 1000000 },
    },
    { name: 'ts', type: 'timestamp', generator: { kind: 'clock' } },
  ],
  key: `salt(phone, 64, hash=${hash}, as=dec(2)) + "_" + phone + "_" + time(ts, "yyyyMMddHHmmss")`,
  workload: { records, seed: 1, writeRate: 10000 },
  regions: { presplit: { kind: 'saltBuckets', buckets: 64, style: 'decimal', width: 2 } },
});
