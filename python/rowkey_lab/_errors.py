"""Errors the package raises itself, shaped as the engine's: a ``RowkeyLabError`` with its
``kind`` and ``path`` (the argument or member), for what only Python sees (a stream's items, a
DataFrame with no rows)."""

from __future__ import annotations

from typing import Optional

from . import _engine


def invalid(message: str, path: Optional[str] = None) -> Exception:
    """A ``RowkeyLabError`` of kind ``invalid`` at ``path``, worded ``path: message``."""
    e = _engine.RowkeyLabError(f"{path}: {message}" if path else message)
    e.kind, e.reason, e.path, e.offset, e.line, e.column = "invalid", message, path, None, None, None
    return e
