"""The arguments every door of the package reads alike: a design (`Design`, or its JSON text or
mapping), Arrow data as the engine takes it, and the rows, analysis and verify options as the
engine's JSON text. Below the package's modules, so each imports them from here, not from the
package (no module imports one that imports it back)."""

from __future__ import annotations

import json
from typing import Any, Mapping, Optional, Sequence

import pyarrow as pa

from . import _engine


class Design:
    """A design document (the JSON the page, the CLI and npm read), checked by the engine.

    It is kept as its JSON text, so it pickles and ships to Spark executors as it is."""

    __slots__ = ("json", "_inferred", "_undeclared")

    def __init__(self, text: str):
        self._undeclared = tuple(_engine.check_design(text))
        self.json = text

    @classmethod
    def from_json(cls, doc: "str | bytes | Mapping[str, Any]") -> "Design":
        """A design from JSON text or a dict; a `RowkeyLabError` at its JSON path when the
        engine does not read it. A design may be just a key (``{"v": 1, "key": "..."}``, no
        ``fields``), as the CLI and npm take it: ``undeclared`` lists the fields its key reads,
        and each function that takes rows declares them from the rows' columns (the rule of
        ``from_rows``) and checks the design then."""
        if isinstance(doc, bytes):
            doc = doc.decode("utf-8")
        if not isinstance(doc, str):
            doc = json.dumps(doc)
        return cls(doc)

    @classmethod
    def from_rows(
        cls,
        doc: "str | bytes | Mapping[str, Any]",
        data: Any,
        *,
        map: Optional[Mapping[str, str]] = None,
    ) -> "Design":
        """A design that may be just a key (``{"v": 1, "key": "..."}``), its fields declared from
        ``data``'s columns (a pyarrow Table, RecordBatch or Schema; a Spark DataFrame, by its
        schema alone; anything with ``.schema`` or ``__arrow_c_schema__``) as ``rowkey-lab
        analyze --records`` declares them: a time segment's field a timestamp,
        ``dec``/``long``/``int``/``short``'s a long, else the column's own type.
        ``design.inferred`` lists them, each with why."""
        if isinstance(doc, Design):
            doc = doc.json
        if isinstance(doc, bytes):
            doc = doc.decode("utf-8")
        if not isinstance(doc, str):
            doc = json.dumps(doc)
        if _is_spark(data):
            schema = _arrow_schema(data, _large(data))
        else:
            s = getattr(data, "schema", None)
            schema = s if hasattr(s, "__arrow_c_schema__") else data
        text, inferred = _engine.declare_fields(doc, schema, _rows(None, map, None, None))
        d = cls(text)
        object.__setattr__(d, "_inferred", json.loads(inferred))
        return d

    @property
    def inferred(self) -> list:
        """The fields ``from_rows`` declared from the data: ``[{field, column, type, basis}]``."""
        return getattr(self, "_inferred", [])

    @property
    def undeclared(self) -> list:
        """The fields the key of a design that is just a key reads (none for a design that
        declares its fields): declared from the rows' columns where rows are taken, or by
        ``from_rows``."""
        return list(self._undeclared)

    @classmethod
    def from_sql(cls, sql: str) -> "Design":
        """The design of a Phoenix ``CREATE TABLE`` statement: its primary key, SALT_BUCKETS
        and SPLIT ON (as ``rowkey-lab analyze table.sql`` reads it)."""
        return cls(_engine.parse_create_table(sql))

    def to_dict(self) -> dict:
        return json.loads(self.json)

    def __repr__(self) -> str:
        name = self.to_dict().get("name")
        return f"Design({name!r})" if name else "Design(...)"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Design) and self.json == other.json

    def __hash__(self) -> int:
        return hash(self.json)


def _design(design: "Design | str | Mapping[str, Any]") -> str:
    return design.json if isinstance(design, Design) else Design.from_json(design).json


def _is_spark(data: Any) -> bool:
    """A Spark DataFrame (classic or Spark Connect)."""
    return type(data).__module__.startswith("pyspark.") and hasattr(data, "mapInArrow")


def _source(data: Any) -> Any:
    """Arrow data the engine reads through the C stream interface."""
    if hasattr(data, "__arrow_c_stream__"):
        return data
    if isinstance(data, pa.RecordBatch):
        return pa.Table.from_batches([data])
    if isinstance(data, (list, tuple)) and all(isinstance(b, pa.RecordBatch) for b in data):
        return pa.Table.from_batches(list(data))
    if type(data).__module__.startswith("pandas"):
        return pa.Table.from_pandas(data, preserve_index=False)
    return data  # the engine says what it expected


def _rereadable(data: Any, source: Any) -> bool:
    """Whether ``source``'s stream can be taken twice, the same rows each time: a pyarrow Table
    (or one made here from ``data``) or a polars DataFrame; not a reader or a query result."""
    made = source is not data
    return made or isinstance(source, pa.Table) or type(source).__module__.startswith("polars.dataframe")


def _rows(
    time: Optional[str],
    map: Optional[Mapping[str, str]],
    nulls: Optional[str],
    epoch: Optional[str],
) -> Optional[str]:
    """The engine's rows options (how columns meet the design's fields) as JSON text."""
    o: dict = {}
    if time is not None:
        o["time"] = time
    if map is not None and not isinstance(map, Mapping):
        raise TypeError(f"map must be a mapping of field to column, not {type(map).__name__}")
    if map:
        o["map"] = dict(map)
    if nulls is not None:
        o["nulls"] = nulls
    if epoch is not None:
        o["epoch"] = epoch
    return json.dumps(o) if o else None


def _json_arg(fn: str, name: str, value: Optional[Mapping[str, Any]]) -> Optional[str]:
    """A mapping argument (``options``) as the engine's JSON text, ``None`` when absent: not a
    mapping, or holding what JSON cannot carry (NaN, infinity, an object), is a ``TypeError``
    naming the argument (before, ``dict()``'s error or the engine's "expected value at line 1
    column 17")."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise TypeError(f"{fn}: {name} must be a mapping, not {type(value).__name__}")
    try:
        return json.dumps(dict(value), allow_nan=False)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{fn}: {name} is not JSON data (NaN and infinity included): {e}") from e


def _options(windows: Optional[int], options: Optional[Mapping[str, Any]]) -> Optional[str]:
    o = dict(options or {})
    if windows is not None:
        o["windows"] = windows
    return json.dumps(o) if o else None


def _verify_options(ignore: Optional[Sequence[str]], columns: Optional[Sequence[str]]) -> Optional[str]:
    """The engine's verify options (``{ignore, columns}``) as JSON text; None: every column."""
    if isinstance(ignore, str) or isinstance(columns, str):
        raise TypeError("verify: ignore and columns are lists of column names")
    opts: dict = {}
    if ignore is not None:
        opts["ignore"] = list(ignore)
    if columns is not None:
        opts["columns"] = list(columns)
    return json.dumps(opts) if opts else None


def _large(df) -> bool:
    """Whether Spark hands Arrow data over with 64-bit offsets (``large_binary``,
    ``large_string``): then it wants the keys so too."""
    conf = df.sparkSession.conf.get("spark.sql.execution.arrow.useLargeVarTypes", "false")
    return str(conf).lower() == "true"


def _arrow_schema(df, large: bool):
    """The Arrow schema Spark hands ``df``'s rows over with (for a partition with no batch)."""
    from pyspark.sql.pandas.types import to_arrow_schema

    tz = df.sparkSession.conf.get("spark.sql.session.timeZone", "UTC")
    return to_arrow_schema(df.schema, timezone=tz, prefers_large_types=large)
