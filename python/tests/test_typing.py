"""The package's declarations for type checkers hold to the built module: `py.typed` ships, and
`_engine.pyi` declares every function of the native module `rowkey_lab._engine` with its
parameters in order and their defaults (what pyo3 writes in each function's
``__text_signature__``), and nothing the module lacks. A #[pyfunction] added, renamed or given
another parameter fails here until the stub says so."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import rowkey_lab
from rowkey_lab import _engine

PACKAGE = Path(rowkey_lab.__file__).parent
STUB = ast.parse((PACKAGE / "_engine.pyi").read_text())


def _stub_functions() -> dict:
    return {n.name: n for n in STUB.body if isinstance(n, ast.FunctionDef)}


def _module_functions() -> dict:
    return {
        name: f
        for name, f in vars(_engine).items()
        if not name.startswith("_") and callable(f) and not isinstance(f, type)
    }


def test_the_wheel_ships_py_typed_and_the_stub():
    assert (PACKAGE / "py.typed").is_file()
    assert (PACKAGE / "_engine.pyi").is_file()


def test_the_stub_declares_every_function_and_no_other():
    assert sorted(_stub_functions()) == sorted(_module_functions())
    # the constants and the exception too
    declared = {t.target.id for t in STUB.body if isinstance(t, ast.AnnAssign) and isinstance(t.target, ast.Name)}
    assert declared == {n for n, v in vars(_engine).items() if not n.startswith("_") and isinstance(v, int)}
    classes = {c.name for c in STUB.body if isinstance(c, ast.ClassDef)}
    assert classes == {"RowkeyLabError"} and issubclass(_engine.RowkeyLabError, Exception)


@pytest.mark.parametrize("name", sorted(_module_functions()))
def test_each_function_has_the_stubs_parameters_and_defaults(name):
    stub = _stub_functions().get(name)
    assert stub is not None, f"{name} is not declared in _engine.pyi"
    args = stub.args.args
    defaults = [None] * (len(args) - len(stub.args.defaults)) + list(stub.args.defaults)
    declared = [(a.arg, inspect.Parameter.empty if d is None else ast.literal_eval(d)) for a, d in zip(args, defaults)]
    actual = [(p.name, p.default) for p in inspect.signature(getattr(_engine, name)).parameters.values()]
    assert declared == actual
