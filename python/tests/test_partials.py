"""rk.partial / rk.merge: chunks of a table counted apart and merged, in any order and any
tree, give rk.analyze's report on the whole table; partials of another design, a row counted
twice or a missing chunk are refused."""

import random

import pytest
from conftest import HASHED, SALTED, make_rows

import rowkey_lab as rk


def _partials(design, chunks, time="ts"):
    scans = [rk.scan(design, c, time=time) for c in chunks]
    table = rk.merge_scans(scans)
    parts, first = [], 0
    for c, s in zip(chunks, scans):
        parts.append(rk.partial(design, c, time=time, table=table, first_row=first))
        first += s["rows"]
    return parts


def _chunks(table, cuts, seed):
    r = random.Random(seed)
    at = sorted([0, len(table)] + [r.randrange(len(table) + 1) for _ in range(cuts)])
    return [table.slice(a, b - a) for a, b in zip(at, at[1:])]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_chunks_merged_in_any_order_and_tree_give_the_one_pass_report(seed):
    table = make_rows(4000, seed)
    want = rk.analyze(SALTED, table, time="ts")
    parts = _partials(SALTED, _chunks(table, 5, seed), time="ts")
    assert parts[0][:4] == b"RKLP"
    random.Random(seed).shuffle(parts)
    assert rk.merge(parts) == want
    # a tree: pairs first, then the pairs' merges
    pairs = [rk.merge_partials(parts[i : i + 2]) for i in range(0, len(parts), 2)]
    assert rk.merge(pairs[::-1], design=SALTED) == want


def test_a_whole_table_is_one_partial(rows):
    assert rk.merge([rk.partial(SALTED, rows)]) == rk.analyze(SALTED, rows)


def test_refused_partials_say_why(rows):
    parts = _partials(SALTED, _chunks(rows, 2, 9))
    other = _partials(HASHED, _chunks(rows, 2, 9))
    with pytest.raises(rk.RowkeyLabError, match="another design") as e:
        rk.merge(parts, design=HASHED)
    assert e.value.kind == "invalid"
    with pytest.raises(rk.RowkeyLabError, match="partial 1: a partial analysis of another design"):
        rk.merge([parts[0], other[1]])
    with pytest.raises(rk.RowkeyLabError, match="counts rows another partial counted"):
        rk.merge_partials([parts[0], parts[0]])
    with pytest.raises(rk.RowkeyLabError, match="a chunk is missing"):
        rk.merge(parts[1:])
    with pytest.raises(rk.RowkeyLabError, match="not a rowkey-lab partial"):
        rk.merge([b"PAR1" + bytes(20)])


def test_a_stream_is_counted_batch_by_batch_as_the_table_it_holds():
    import pyarrow as pa

    table = make_rows(3000, 5)
    scan = rk.scan(SALTED, table, time="ts")
    batches = table.to_batches(max_chunksize=128)
    seen = []

    def produce():
        for b in batches:
            seen.append(b.num_rows)  # read only as the engine asks for the next batch
            yield b

    stream = pa.RecordBatchReader.from_batches(table.schema, produce())
    got = rk.partial(SALTED, stream, time="ts", table=scan)
    assert got == rk.partial(SALTED, table, time="ts", table=scan)
    assert sum(seen) == 3000 and len(seen) == len(batches)

    def failing():
        yield batches[0]
        raise ValueError("the source went away")

    stream = pa.RecordBatchReader.from_batches(table.schema, failing())
    with pytest.raises(rk.RowkeyLabError, match="the source went away") as e:
        rk.partial(SALTED, stream, time="ts", table=scan)
    assert e.value.path == "source"
