# The native module rowkey_lab._engine (python/src/): its functions as type checkers see them.
# python/tests/test_typing.py holds this file to the built module (every function, its
# parameters, their defaults), so a change to a #[pyfunction] fails until it is declared here.
# JSON texts in and out are `str`; Arrow data is any object with __arrow_c_stream__.

from os import PathLike
from typing import Any, Mapping, Optional, Sequence, Union

MAX_EXACT_ROWS: int

class RowkeyLabError(Exception):
    kind: str
    reason: str
    path: Optional[str]
    offset: Optional[int]
    line: Optional[int]
    column: Optional[int]

# designs and options (src/design.rs)
def check_design(text: str) -> list[str]: ...
def declare_fields(design_json: str, schema: Any, rows_json: Optional[str] = None) -> tuple[str, str]: ...
def parse_create_table(sql: str) -> str: ...

# row keys, split keys, regions (src/keys.rs)
def encode(design_json: str, source: Any, rows_json: Optional[str] = None) -> tuple[bytes, bytes]: ...
def encode_skipped(design_json: str, source: Any, rows_json: Optional[str] = None) -> tuple[bytes, bytes, bytes]: ...
def split_points(
    design_json: str, source: Any, regions: int, rows_json: Optional[str] = None, by: str = "rows"
) -> list[bytes]: ...
def to_string_binary(key: bytes) -> str: ...
def splits_file(keys: Sequence[bytes]) -> str: ...
def buckets(design_json: str) -> int: ...
def bucket_weights(design_json: str, source: Any) -> list[tuple[int, int]]: ...
def cut_ranks(design_json: str, weights: Sequence[int], regions: int) -> list[int]: ...
def target_cuts(
    design_json: str, weights: Sequence[int], regions: int, before: int, source: Any, by: str = "bytes"
) -> tuple[list[tuple[int, int]], int]: ...
def cut_picked(
    design_json: str, weights: Sequence[int], regions: int, smallest: Optional[bytes], picks: Mapping[int, bytes]
) -> list[bytes]: ...
def shell_create(table: str, family: str, keys: Sequence[bytes]) -> str: ...
def regions_of(split_keys: Sequence[bytes], source: Any) -> bytes: ...

# analyses (src/analysis.rs)
def analyze(
    design_json: str,
    source: Any,
    options_json: Optional[str] = None,
    rows_json: Optional[str] = None,
    reread: bool = False,
) -> str: ...
def analyze_file(
    design_json: str,
    path: Union[str, PathLike[str]],
    options_json: Optional[str] = None,
    rows_json: Optional[str] = None,
) -> str: ...
def life(design_json: str, options_json: Optional[str] = None) -> str: ...
def life_rows(
    design_json: str,
    source: Any,
    options_json: Optional[str] = None,
    rows_json: Optional[str] = None,
    budgets_json: Optional[str] = None,
) -> str: ...
def life_compare(
    design_json: str, options_json: Optional[str] = None, other_options_json: Optional[str] = None
) -> str: ...
def check_life(design_json: str, options_json: Optional[str] = None, budgets_json: Optional[str] = None) -> str: ...

# rekey (src/rekey.rs)
def rekey_plan(
    old_json: str, new_json: str, old_report: str, new_report: str, options_json: Optional[str] = None
) -> str: ...
def verify(
    new_json: str, old_rows: Any, new_rows: Any, rows_json: Optional[str] = None, options_json: Optional[str] = None
) -> str: ...
def verify_design(
    new_json: str,
    old_schema: Any,
    new_schema: Any,
    rows_json: Optional[str] = None,
    options_json: Optional[str] = None,
) -> tuple[str, str]: ...
def verify_partial(
    new_json: str,
    side: str,
    source: Any,
    rows_json: Optional[str] = None,
    buckets: Optional[Sequence[int]] = None,
) -> bytes: ...
def verify_rounds(new_json: str, counts: Sequence[bytes], max_held: Optional[int] = None) -> list[list[int]]: ...
def verify_settle(new_json: str, held: Sequence[bytes], settled: Optional[bytes] = None) -> bytes: ...
def verify_report(
    new_json: str, counts: Sequence[bytes], held: Sequence[bytes], columns_json: Optional[str] = None
) -> str: ...
def check_series_sizes(sizes: Sequence[int]) -> None: ...
def read_series(files: Sequence[tuple[str, str, Optional[int]]], table: Optional[str] = None) -> str: ...
def rekey_from_series(
    old_json: str,
    new_json: str,
    series_json: str,
    regions: int,
    sample: Optional[int] = None,
    options_json: Optional[str] = None,
) -> str: ...

# partial analyses (src/partials.rs)
def scan(design_json: str, source: Any, rows_json: Optional[str] = None) -> str: ...
def merge_scans(scans: Sequence[str]) -> str: ...
def partial(
    design_json: str,
    source: Any,
    table_json: str,
    first_row: int,
    options_json: Optional[str] = None,
    rows_json: Optional[str] = None,
    recount: bool = False,
) -> bytes: ...
def partial_keys(
    design_json: str,
    source: Any,
    table_json: str,
    first_row: int,
    options_json: Optional[str] = None,
    rows_json: Optional[str] = None,
) -> tuple[bytes, bytes, bytes]: ...
def merge_partials(parts: Sequence[bytes], design_json: Optional[str] = None) -> bytes: ...
def report_of_partials(parts: Sequence[bytes], design_json: Optional[str] = None) -> str: ...
def recount(design_json: str, source: Any) -> str: ...
def check_recount(design_json: str) -> None: ...
def report_of_partials_recounted(
    parts: Sequence[bytes], recounts: Sequence[str], design_json: Optional[str] = None
) -> str: ...
