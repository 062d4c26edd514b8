"""The benchmarks time what ships.

scripts/test.sh installs a wheel built with the native tests' cargo profile (`native-tests`, see
scripts/test-python.sh) into .venv, so a benchmark run after the tests would time a slower engine
than users install: it stops here instead. The wheel that ships is built with the `wheel` profile.
"""

import pathlib
import sys


def require_shipped_wheel() -> None:
    """Exits (status 2) unless the installed rowkey_lab wheel is one that ships."""
    marker = pathlib.Path(sys.prefix) / "rowkey-lab-wheel-profile"
    profile = marker.read_text().strip() if marker.exists() else ""
    if profile == "wheel":  # Cargo.toml's profile for the wheel users install
        return
    print(
        f"the installed rowkey_lab wheel was built with the tests' profile ({profile}); "
        "benchmarks time the shipped wheel: bash scripts/test-python.sh --build"
        if profile
        else "no record of the installed rowkey_lab wheel's build: bash scripts/test-python.sh --build",
        file=sys.stderr,
    )
    sys.exit(2)
