#!/usr/bin/env python3
"""Write tests/fixtures/observe/: a table's snapshots as HBase 2.x prints them, for
`rowkey-lab observe` and tests/engine/observe/.

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


def write(name, text, folder="scenario"):
    path = os.path.join(ROOT, folder, name)
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
    forms()
    salted()


def to_string_binary(b):
    """Bytes.toStringBinary: printable ASCII but backslash kept, others as \\xNN."""
    return "".join(chr(c) if 0x20 <= c <= 0x7E and c != 0x5C else f"\\x{c:02X}" for c in b)


def region_bytes(table, start, rid):
    head = table.encode() + b"," + start + b"," + str(rid).encode()
    enc = hashlib.md5(head).hexdigest()
    name = f"{table},{to_string_binary(start)},{rid}.{enc}."
    return {"name": name, "enc": enc, "start": to_string_binary(start)}


def list_regions(rows):
    """`list_regions 'events'` (admin.rb): every cell printf(" %<width>s |"), a dashed rule."""
    cols = ["SERVER_NAME", "REGION_NAME", "START_KEY", "END_KEY", "SIZE", "REQ", "LOCALITY"]
    cells = [[str(c) for c in r] for r in rows]
    widths = [max([len(cols[i])] + [len(r[i]) for r in cells]) for i in range(len(cols))]
    line = lambda r: "".join(f" {c:>{w}} |" for c, w in zip(r, widths))
    rule = "".join(f" {'-' * w} |" for w in widths)
    return "\n".join([line(cols), rule] + [line(r) for r in cells]) + f"\n {len(rows)} rows\nTook 0.0310 seconds\n"


def ruby_dump(s):
    """Ruby's String#dump of printable ASCII: \\ and \" escaped, # before { $ @ too."""
    out = ""
    for i, c in enumerate(s):
        if c in '\\"':
            out += "\\" + c
        elif c == "#" and s[i + 1 : i + 2] in ("{", "$", "@"):
            out += "\\#"
        else:
            out += c
    return '"' + out + '"'


def region_load(store_mb, mem_mb, reads, writes):
    """RegionLoad.toString (branch-2): Strings.appendKeyValue, `key=value` joined by `, `."""
    return (
        f"numberOfStores=1, numberOfStorefiles=2, storefileUncompressedSizeMB={store_mb + 1}, "
        f"lastMajorCompactionTimestamp=0, storefileSizeMB={store_mb}, "
        f"compressionRatio={store_mb / (store_mb + 1):.4f}, memstoreSizeMB={mem_mb}, "
        f"storefileIndexSizeMB=0, readRequestsCount={reads}, writeRequestsCount={writes}, "
        "rootIndexSizeKB=1, totalStaticIndexSizeKB=2, totalStaticBloomSizeKB=3, totalCompactingKVs=0, "
        "currentCompactedKVs=0, compactionProgressPct=NaN, completeSequenceId=55, dataLocality=1.0"
    )


def status_detailed(servers):
    """`status 'detailed'` (admin.rb, branch-2)."""
    out = [
        "version 2.5.8",
        "0 regionsInTransition",
        "active master:  m1.example.internal:16000 1700000000000",
        "0 backup masters",
        "master coprocessors: []",
        f"{len(servers)} live servers",
    ]
    for s, regions in servers:
        host, port, start = SERVERS[s]
        out.append(f"    {host}:{port} {start}")
        out.append(
            f"        requestsPerSecond=0.0, numberOfOnlineRegions={len(regions)}, usedHeapMB=512, maxHeapMB=4096, "
            "numberOfStores=1, numberOfStorefiles=2, storefileUncompressedSizeMB=0, storefileSizeMB=0, "
            "memstoreSizeMB=0, storefileIndexSizeKB=0, readRequestsCount=0, filteredReadRequestsCount=0, "
            "writeRequestsCount=0, rootIndexSizeKB=0, totalStaticIndexSizeKB=0, totalStaticBloomSizeKB=0, "
            "totalCompactingKVs=0, currentCompactedKVs=0, compactionProgressPct=NaN, coprocessors=[]"
        )
        for r, load in regions:
            out.append(f"        {ruby_dump(r['name'])}")
            out.append(f"            {region_load(*load)}")
    out.append("0 dead servers")
    return "\n".join(out) + "\n"


def forms():
    rs1, rs2 = (",".join(str(x) for x in SERVERS[s]) for s in ("rs1", "rs2"))
    t0 = 1795669200000
    # list_regions twice, a minute apart: REQ counts reads and writes together.
    for k, (req_a, req_b, mb) in enumerate(((6000, 1000, 10), (9600, 1900, 12))):
        text = list_regions([
            (rs1, A["name"], "", "m", mb, req_a, "1.0"),
            (rs2, B["name"], "m", "", 20, req_b, "1.0"),
        ])
        write(f"list_regions-{t0 + k * 60000}.txt", text, "list_regions")
    # status 'detailed' twice, 30 s apart, with keys Ruby's dump escapes.
    c = region_bytes("events", b"", 1700000000000)
    d = region_bytes("events", b"\x80", 1700000000000)
    e = region_bytes("events", b'q"#{x', 1700000000000)
    for k, (dr, dw) in enumerate(((100, 200), (400, 800))):
        text = status_detailed([
            ("rs1", [(c, (5, 0, 10, 20)), (d, (6, 1, dr, dw))]),
            ("rs2", [(e, (7, 2, 3, 4 + k))]),
        ])
        write(f"status-{t0 + k * 30000}.txt", text, "status")
    # A and B merged into M within the minute (list_regions before and after).
    m = region("events", "", 1795669230000)
    write(f"list_regions-{t0}.txt", list_regions([
        (rs1, A["name"], "", "m", 10, 6000, "1.0"),
        (rs2, B["name"], "m", "", 20, 1000, "1.0"),
    ]), "merge")
    write(f"list_regions-{t0 + 60000}.txt", list_regions([
        (rs1, m["name"], "", "", 30, 1200, "1.0"),
    ]), "merge")


def java_string_hash(text):
    """Java's String.hashCode (31 * h + char, as a 32-bit int): the salt's default hash."""
    h = 0
    for c in text:
        h = (31 * h + ord(c)) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


# The salted table `metrics` (tests/fixtures/observe/salted-design.json: key
# `salt(host, 8, as=dec(2)) + "|" + host + "|" + long(ts)`, 12 hosts): eight regions, one per
# bucket, starting "", "01" ... "07". Every host writes 10 rows/s but web07, which writes 60.
HOSTS = [f"web{i:02d}" for i in range(1, 13)]
HOST_WRITES = {h: (60 if h == "web07" else 10) for h in HOSTS}
# rs2 holds buckets 03 and 07, rs1 the other six.
SALTED_ON_RS2 = (3, 7)


def salt_bucket(host):
    """`Math.abs(h % 8)` (mod=absOfMod, the default): Java's % keeps the dividend's sign."""
    h = java_string_hash(host)
    return abs(h - 8 * int(h / 8))


def salted():
    regions = [region("metrics", "" if b == 0 else f"{b:02d}", 1700000000000) for b in range(8)]
    per_bucket = [sum(w for h, w in HOST_WRITES.items() if salt_bucket(h) == b) for b in range(8)]
    ends = [r["start"] for r in regions[1:]] + [""]
    rows = [
        f" {r['name']} column=info:regioninfo, timestamp=2026-11-26T06:00:00.000, "
        f"value={{ENCODED => {r['enc']}, NAME => '{r['name']}', STARTKEY => '{r['start']}', ENDKEY => '{e}'}}"
        for r, e in zip(regions, ends)
    ]
    write("meta.txt", "ROW  COLUMN+CELL\n" + "\n".join(rows) + f"\n{len(rows)} row(s)\nTook 0.0400 seconds\n", "salted")
    # Four polls a minute apart from 2026-11-26T06:00:00Z; counters since the regions opened:
    # writes 1000 + rate * 60 * k, reads 500 + 5 * 60 * k; store files 100 MB + k MB.
    for k in range(4):
        for server in ("rs1", "rs2"):
            mine = [b for b in range(8) if (b in SALTED_ON_RS2) == (server == "rs2")]
            rows = [
                ("default", "metrics", regions[b]["enc"], 500 + 300 * k, 1000 + per_bucket[b] * 60 * k, 100 + k, 1)
                for b in mine
            ]
            write(f"20261126T06{k:02d}00Z-{server}.json", jmx(server, rows), "salted")


if __name__ == "__main__":
    main()
