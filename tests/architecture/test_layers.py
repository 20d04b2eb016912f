"""The package's layering, checked from the source (lazy imports inside functions count).

The units are the top-level modules and subpackages of `sumjudge` (`runner`, `metrics`,
...). The data flows one way (item -> plan -> requests -> runner -> judge -> readers ->
rules -> record); these tests fail when an import runs back up that chain. What they
check is what docs/architecture.md's "Layering" section promises.
"""

from __future__ import annotations

import ast
from pathlib import Path

import sumjudge

PACKAGE = Path(sumjudge.__file__).parent
# What the pure layers may not import: engine, backends, evaluators and the face.
ENGINE = {"judges", "runner", "cache", "evaluators", "cli"}
PURE = (
    "metrics",
    "protocol",
    "subjects",
    "types",
    "errors",
    "rules",
    "plan",
    "text",
    "tokens",
    "transcripts",
    "redaction",
    "reask",
    "retry",
    "scheduling",
    "noise",
)


def _unit(path: Path) -> str:
    rel = path.relative_to(PACKAGE)
    return rel.parts[0].removesuffix(".py")


def _targets(path: Path) -> set[tuple[str, ...]]:
    """What a file imports of sumjudge, at any depth of its code, as dotted parts.

    `from a.b import c` gives `a.b` and `a.b.c` (c may be a module or a name in a.b).
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = path.relative_to(PACKAGE).with_suffix("").parts
    found: set[tuple[str, ...]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "sumjudge" and len(parts) > 1:
                    found.add(tuple(parts[1:]))
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                parts = (node.module or "").split(".")
                if parts[0] != "sumjudge":
                    continue
                target = parts[1:]
            else:
                package = list(here[:-1])
                base = package[: len(package) - (node.level - 1)]
                target = [*base, *((node.module or "").split(".") if node.module else [])]
            if target:
                found.add(tuple(target))
            found.update((*target, alias.name) for alias in node.names)
    return found


def _imports(path: Path) -> set[str]:
    """The sumjudge units a file imports, at any depth of its code."""
    # `from . import x` at the top gives ("x",): x is the unit.
    return {target[0] for target in _targets(path)}


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        unit = _unit(path)
        if unit == "__init__":
            continue  # the public face re-exports everything
        graph.setdefault(unit, set()).update(u for u in _imports(path) if u != unit)
    return graph


def test_pure_layers_import_no_engine_backend_evaluator_or_cli() -> None:
    graph = _graph()
    bad = {u: sorted(graph.get(u, set()) & ENGINE) for u in PURE}
    assert {u: v for u, v in bad.items() if v} == {}


def test_only_the_cli_imports_the_cli() -> None:
    graph = _graph()
    assert sorted(u for u, deps in graph.items() if "cli" in deps and u != "cli") == []


def test_no_cycle_between_top_level_units() -> None:
    graph = _graph()
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        for nxt in sorted(graph.get(node, set())):
            if nxt in path:
                cycles.append([*path[path.index(nxt) :], nxt])
            elif nxt in graph and len(path) < 20:
                visit(nxt, [*path, nxt])

    for start in sorted(graph):
        visit(start, [start])
    assert cycles == []


def test_the_graph_sees_relative_and_lazy_imports() -> None:
    graph = _graph()
    assert "runner" in graph["evaluators"]  # `from ..runner import` at module level
    assert "offline" in graph["judges"]  # `from ..offline import` inside a function
    assert "protocol" in graph["errors"]  # under `if TYPE_CHECKING:`


def _third_party(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found - {"sumjudge", "__future__"}


def test_the_comparison_is_pure_statistics_on_records() -> None:
    """`compare/` reads result files and computes: no judge, engine, evaluator, report or CLI.

    Its one import of ours is the stdlib-only JSONL line reader every results reader shares.
    """
    graph = _graph()
    assert graph["compare"] <= {"jsonl"}, sorted(graph["compare"])
    assert graph["jsonl"] == set(), sorted(graph["jsonl"])
    import sys

    allowed = {"numpy", *sys.stdlib_module_names}
    for path in (PACKAGE / "compare").rglob("*.py"):
        assert _third_party(path) <= allowed, (path.name, sorted(_third_party(path) - allowed))


def test_only_pytest_loads_the_plugin() -> None:
    graph = _graph()
    assert sorted(u for u, deps in graph.items() if "pytest_plugin" in deps) == []
    assert "pytest" not in _third_party(PACKAGE / "assertions.py")
    assert "cli" not in graph["assertions"]


def test_distributed_sits_above_the_evaluators_and_only_the_engines_use_it() -> None:
    graph = _graph()
    # The engine-free core of distributed jobs: no engine face, no CLI.
    assert graph["distributed"] & {"spark", "ray", "cli"} == set()
    # Nothing below the evaluators reaches the distributed layer.
    users = sorted(u for u, deps in graph.items() if "distributed" in deps)
    assert users == ["cli", "ray", "spark"]
    # The engines' faces are leaves: only the CLI (lazily) imports them.
    assert sorted(u for u, deps in graph.items() if deps & {"spark", "ray"}) == ["cli"]


def test_the_batch_package_sits_beside_the_evaluators_not_above_them() -> None:
    graph = _graph()
    # evaluators reach batch rounds lazily; batch drives an evaluator only through a
    # protocol, so it must not import the evaluators (nor the CLI) back.
    assert "batch" in graph["evaluators"]
    assert graph["batch"] & {"evaluators", "cli"} == set()
    assert "runner" in graph["batch"] and "judges" in graph["batch"]


# Dependencies run downwards in this order (docs/architecture.md): no unit imports one
# to its left.
ORDER = ("cli", "evaluators", "judges", "metrics", "types", "protocol")
# The engine sits beside the evaluators: nothing below them uses it.
ENGINE_CORE = {"runner", "cache", "cost", "ratelimit", "accounting"}
# Issue 25: these modules (branch batch25's files) still import an underscore module of
# another package; each name has a public home now (`sumjudge.judges.status_error`,
# `sumjudge.judges.get_judge`, `sumjudge.metrics.JudgeOptions` ...). Any new reach-in
# fails the test, and so does an entry here that is no longer needed.
UNDERSCORE_REACH_INS = {
    ("batch/backend_steps.py", "judges._http"),
    ("evaluators/auto.py", "metrics._conversation"),
    ("evaluators/longconversation.py", "metrics._conversation"),
    ("evaluators/longsource.py", "metrics._base"),
    ("evaluators/pairwise.py", "metrics._base"),
    ("evaluators/panel.py", "judges._registry"),
    ("evaluators/summarization.py", "metrics._base"),
}


def _rel(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def test_dependencies_run_down_cli_evaluators_judges_metrics_types_protocol() -> None:
    graph = _graph()
    upward = sorted(
        f"{low} imports {high}"
        for i, high in enumerate(ORDER)
        for low in ORDER[i + 1 :]
        if high in graph.get(low, set())
    )
    assert upward == []


def test_nothing_below_the_evaluators_uses_the_engine() -> None:
    graph = _graph()
    below = ORDER[ORDER.index("judges") :]
    assert {u: sorted(graph[u] & ENGINE_CORE) for u in below if graph[u] & ENGINE_CORE} == {}


def test_judges_never_import_metrics() -> None:
    """A backend answers requests, it does not build them: no judge knows the metrics.

    The offline judge's backend, which names the parts it declines by the metrics' task
    names, lives beside the offline scorer (`offline/backend.py`), not among the judges.
    """
    found = {
        _rel(path) for path in (PACKAGE / "judges").rglob("*.py") if "metrics" in _imports(path)
    }
    assert sorted(found) == [], "a judge imports metrics"
    assert "metrics" in _imports(PACKAGE / "offline" / "backend.py")  # the check sees it


def _is_module(parts: tuple[str, ...]) -> bool:
    where = PACKAGE.joinpath(*parts)
    return where.with_suffix(".py").is_file() or (where / "__init__.py").is_file()


def _underscore_reach_ins() -> set[tuple[str, str]]:
    """(importer, module): a module outside a package importing one of its `_` modules."""
    found: set[tuple[str, str]] = set()
    for path in PACKAGE.rglob("*.py"):
        package = path.relative_to(PACKAGE).parts[:-1]
        for target in _targets(path):
            for i, part in enumerate(target):
                private = part.startswith("_") and not part.startswith("__")
                if private and _is_module(target[: i + 1]):
                    owner = target[:i]
                    if package[: len(owner)] != owner:
                        found.add((_rel(path), ".".join(target[: i + 1])))
                    break
    return found


def test_no_module_reaches_into_another_packages_underscore_modules() -> None:
    found = _underscore_reach_ins()
    assert sorted(found - UNDERSCORE_REACH_INS) == [], "import the public name instead"
    assert sorted(UNDERSCORE_REACH_INS - found) == [], "fixed: drop it from the exceptions"


def test_the_underscore_check_sees_a_reach_in() -> None:
    # Inside its own package an underscore module is fine; `sumjudge._version` belongs
    # to the root package, which every module is inside.
    found = _underscore_reach_ins()
    assert ("batch/backend_steps.py", "judges._http") in found
    assert not any(module == "_version" for _, module in found)
    assert not any(importer.startswith("metrics/") for importer, _ in found)
