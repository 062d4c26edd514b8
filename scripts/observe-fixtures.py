#!/usr/bin/env python3
"""Write tests/fixtures/observe/: a table's snapshots as HBase 2.x prints them, for
`rowkey-lab observe` and tests/observe/.

The formats, read from HBase's source (branch-2, paraphrased; no code copied):

* `/jmx` (JMXJsonServlet): `{"beans" : [ {...}, ... ]}`, pretty-printed with two-space
  indents and ` : ` between a name and its value. The bean
  `Hadoop:service=HBase,name=RegionServer,sub=Regions` holds, per region,
  `Namespace_<ns>_table_<table>_region_<encoded>_metric_<name>` (MetricsRegionSourceImpl:
  `regionNamePrefix1 + "_metric_"`, the encoded name from MetricsRegionWrapperImpl), among them
  storeCount, storeFileCount, memStoreSize, storeFileSize (bytes), readRequestCount,
  filteredReadRequestCount, writeRequestCount (counters since the region opened); store-level
  counters are `..._region_<encoded>_store_<family>_metric_<name>`. `tag.Hostname` names the
  host; bean `sub=Server` has `tag.serverName` (`host,port,startcode`).
* A region name: `table,startkey,regionid.encoded.` where encoded is the MD5 hex of
  `table,startkey,regionid` (RegionInfo.createRegionName); computed here with hashlib,
  independently of the crate's MD5.
* `scan 'hbase:meta'` (a region's info:regioninfo row): ` <region name> column=info:regioninfo,
  timestamp=<ts>, value={ENCODED => <enc>, NAME => '<name>', STARTKEY => '<s>', ENDKEY => '<e>'}`.
* `status 'detailed'` (admin.rb): `N live servers`, each server as `    host:port startcode`, its
  load, then per region `        "<name>"` (Bytes.toStringBinary, then Ruby's String#dump) and
  `            <RegionLoad.toString>`: `numberOfStores=1, numberOfStorefiles=1, ...,
  storefileSizeMB=.., memstoreSizeMB=.., storefileIndexSizeMB=0, readRequestsCount=..,
  writeRequestsCount=.., ...` (Strings.appendKeyValue: `key=value` joined by `, `).

Run: python3 scripts/observe-fixtures.py
"""

import hashlib
import json
import os

ROOT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "observe")
MB = 1 << 20


def region(table, start, rid):
    head = f"{table},{start},{rid}"
    enc = hashlib.md5(head.encode()).hexdigest()
    return {"name": f"{head}.{enc}.", "enc": enc, "start": start}


# The table `events`: A = ["", m), B = [m, "") split at t into B1 and B2.
A = region("events", "", 1700000000000)
B = region("events", "m", 1700000000000)
B1 = region("events", "m", 1795669230000)
B2 = region("events", "t", 1795669230000)
META = region("hbase:meta", "", 1)  # hbase:meta's own counters sit in the same bean
OTHER = region("other", "", 1700000000001)

SERVERS = {
    "rs1": ("rs1.example.internal", 16020, 1700000000123),
    "rs2": ("rs2.example.internal", 16020, 1700000000456),
}


def jmx(server, regions):
    """One RegionServer's `/jmx?qry=Hadoop:service=HBase,name=RegionServer,sub=*` output."""
    host, port, start = SERVERS[server]
    metrics = {
        "name": "Hadoop:service=HBase,name=RegionServer,sub=Regions",
        "modelerType": "RegionServer,sub=Regions",
        "tag.Context": "regionserver",
        "tag.Hostname": host,
    }
    for ns, table, enc, reads, writes, store_mb, mem_mb in regions:
        p = f"Namespace_{ns}_table_{table}_region_{enc}_metric_"
        metrics[p + "storeCount"] = 1
        metrics[p + "storeFileCount"] = 2
        metrics[p + "memStoreSize"] = mem_mb * MB
        metrics[p + "storeFileSize"] = store_mb * MB
        metrics[p + "readRequestCount"] = reads
        metrics[p + "filteredReadRequestCount"] = 0
        metrics[p + "writeRequestCount"] = writes
        metrics[f"Namespace_{ns}_table_{table}_region_{enc}_store_cf_metric_mixedRowReadsCount"] = 7
        metrics[p + "replicaid"] = 0
    server = {
        "name": "Hadoop:service=HBase,name=RegionServer,sub=Server",
        "modelerType": "RegionServer,sub=Server",
        "tag.zookeeperQuorum": "zk1:2181",
        "tag.serverName": f"{host},{port},{start}",
        "tag.clusterId": "0b4b3a1e-0000-4000-8000-000000000000",
        "tag.Context": "regionserver",
        "tag.Hostname": host,
        "regionCount": len(regions),
    }
    # The servlet's pretty printer: two spaces, ` : `.
    return json.dumps({"beans": [server, metrics]}, indent=2, separators=(",", " : ")) + "\n"


def ev(r, reads, writes, store_mb, mem_mb):
    return ("default", "events", r["enc"], reads, writes, store_mb, mem_mb)


def write(name, text):
    path = os.path.join(ROOT, "scenario", name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def meta_scan():
    rows = []
    for r, end in ((A, "m"), (B, ""), (B1, "t"), (B2, "")):
        rows.append(
            f" {r['name']} column=info:regioninfo, timestamp=2026-11-26T05:00:00.000, "
            f"value={{ENCODED => {r['enc']}, NAME => '{r['name']}', STARTKEY => '{r['start']}', ENDKEY => '{end}'}}"
        )
    return "ROW  COLUMN+CELL\n" + "\n".join(rows) + f"\n{len(rows)} row(s)\nTook 0.0412 seconds\n"


def main():
    # hbase:meta keeps its legacy encoded name, not an MD5: no region of a table.
    hbase_meta = ("hbase", "meta", "1588230740", 50, 5, 1, 0)
    other = ("default", "other", OTHER["enc"], 1, 1, 1, 0)
    # The series, one poll a minute from 2026-11-26T05:00:00Z (epoch 1795669200000):
    # 0 A on rs1, B on rs2; 1 B split into B1, B2; 2 A moved to rs2, B2 reopened (its counters
    # went down); 3 rs2's dump missing; 4 both again.
    polls = [
        ("20261126T050000Z", {"rs1": [ev(A, 1000, 5000, 10, 1), hbase_meta], "rs2": [ev(B, 200, 800, 20, 2), other]}),
        ("20261126T050100Z", {"rs1": [ev(A, 1600, 8000, 12, 2), hbase_meta], "rs2": [ev(B1, 30, 120, 9, 0), ev(B2, 60, 240, 11, 1), other]}),
        ("20261126T050200Z", {"rs1": [hbase_meta], "rs2": [ev(A, 300, 900, 13, 1), ev(B1, 90, 480, 9, 1), ev(B2, 20, 60, 12, 0), other]}),
        ("20261126T050300Z", {"rs1": [hbase_meta]}),
        ("20261126T050400Z", {"rs1": [hbase_meta], "rs2": [ev(A, 900, 2100, 14, 0), ev(B1, 150, 840, 10, 0), ev(B2, 140, 300, 12, 1), other]}),
    ]
    for t, servers in polls:
        for s, regions in servers.items():
            write(f"{t}-{s}.json", jmx(s, regions))
    write("meta.txt", meta_scan())


if __name__ == "__main__":
    main()
