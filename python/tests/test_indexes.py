"""Phoenix indexes through the package: each index analyzed as the table it is, its
statement, and the reads through it; the figures derived from the rules, not from a run."""

import rowkey_lab as rk

SQL = """CREATE TABLE orders (
    order_id VARCHAR NOT NULL PRIMARY KEY,
    customer_id VARCHAR,
    created_at TIMESTAMP,
    total DECIMAL(10, 2)
) SALT_BUCKETS = 8;
CREATE INDEX by_time ON orders (created_at) SALT_BUCKETS = 0;
CREATE INDEX by_customer ON orders (customer_id) INCLUDE (total);
"""


def test_each_index_is_analyzed_as_a_table():
    design = rk.Design.from_sql(SQL)
    time, customer = rk.index_analysis(design, windows=10)
    # Unsalted with no split points: one region, every write of every window on it.
    assert (time["name"], time["regionsOfItsOwn"], time["busiestShare"]) == ("BY_TIME", 1, 1.0)
    # The covered index takes the table's 8 salt buckets: about an eighth each.
    assert customer["regionsOfItsOwn"] == 8
    assert customer["busiestShare"] < 0.25
    # A covered global index: 2 index writes per put, 4 per update of an indexed column, 2
    # per delete; its INCLUDE bytes are labelled an estimate.
    assert customer["writes"] == {"put": 2, "updateIndexed": 4, "delete": 2, "consistencyExtra": 1}
    assert customer["bytesEstimated"] and "INCLUDE" in customer["estimates"][0]


def test_index_statements_and_reads():
    design = rk.Design.from_sql(SQL)
    tables = rk.index_tables(design)
    assert [t["sql"] for t in tables] == [
        "CREATE INDEX BY_TIME ON ORDERS (CREATED_AT) SALT_BUCKETS=0;",
        "CREATE INDEX BY_CUSTOMER ON ORDERS (CUSTOMER_ID) INCLUDE (TOTAL);",
    ]
    assert [len(t["splitKeysHex"]) for t in tables] == [0, 7]
    # A .sql design's read, a row by its primary key: a point lookup on the data table.
    (read,) = rk.index_reads(design)
    assert read["chosen"]["index"] is None and read["chosen"]["access"] == "pointLookup"
    assert rk.index_analysis(rk.Design.from_sql(SQL.split(";")[0] + ";")) == []


def test_the_advisor_names_the_unsalted_time_index_and_its_fixes():
    design = rk.Design.from_sql(SQL)
    a = rk.advise(design, records=4000, windows=8)
    # BY_TIME is one region (SALT_BUCKETS=0, no split points): every write on it. BY_CUSTOMER
    # takes the table's 8 buckets and spreads: no finding for it.
    (finding,) = a["indexFindings"]
    assert (finding["index"], finding["regions"], finding["busiestShare"]) == ("BY_TIME", 1, 1.0)
    salt = next(f for f in finding["fixes"] if f["fix"] == "salt")
    assert salt["statement"] == "CREATE INDEX BY_TIME ON ORDERS (CREATED_AT) SALT_BUCKETS=8;"
    assert salt["regions"] == 8 and salt["spreads"]
    local = next(f for f in finding["fixes"] if f["fix"] == "local")
    assert local["regions"] == 0
    # Every candidate carries its indexes' figures.
    assert all(len(c["metrics"]["indexes"]) == 2 for c in a["candidates"] if c["metrics"])
