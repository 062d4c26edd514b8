"""Writes a Parquet file of many tiny row groups (issue 56: 10^5 row groups of 4 rows took over
300 s on the page against 17 s in npm), and the design that reads it, for
scripts/bench-row-groups.mjs. Made here, never committed (10^5 row groups are about 40 MB of
footer and pages).

Usage: python scripts/parquet-row-groups.py OUT.parquet [GROUPS [ROWS]]
(defaults 100000 and 4); the design is written beside it as OUT.design.json. Needs pyarrow (the
project's .venv has it: `python3 -m venv .venv && .venv/bin/pip install pyarrow`)."""
import json
import sys

import pyarrow as pa
import pyarrow.parquet as pq

out = sys.argv[1]
groups = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
rows = int(sys.argv[3]) if len(sys.argv) > 3 else 4
n = groups * rows
# a phone-like id and an hourly time, as the telecom preset's key reads them
ids = pa.array([f"1{(i * 7919) % 10**10:010d}" for i in range(n)])
hours = pa.array([1_631_000_000_000 + (i // 16) * 3_600_000 for i in range(n)], pa.timestamp("ms", tz="UTC"))
table = pa.table({"phone": ids, "ts": hours, "n": pa.array(range(n), pa.int64())})
pq.write_table(table, out, row_group_size=rows, compression="snappy")
design = {
    "v": 1,
    "fields": [{"name": "phone", "type": "string"}, {"name": "ts", "type": "timestamp"}],
    "key": 'phone + "_" + time(ts, "yyyyMMddHH")',
}
with open(out.removesuffix(".parquet") + ".design.json", "w") as f:
    json.dump(design, f)
print(f"{out}: {groups} row groups of {rows} rows ({n} rows)")
