"""Couplings the import graph cannot see, checked from the source.

- Nothing outside `evaluators/` writes an attribute on an evaluator (a batch run used to
  swap its caller, rewrite its price and replace its `evaluate_batch`), and nothing hands
  an object its evaluator after construction (`agreement.evaluator = ...`).
- `import sumjudge` does not load `sumjudge.batch` (an evaluator imports it for a batch
  run only).
- A cut reply becomes `TruncatedResponseError` in one place, the runner: no backend
  raises it.
- No private key rides along in a copy of a dict (`{**kwargs, "_mode": mode}`): what a
  callee needs is an argument.
- The runner's frames pass one `CallContext`, not a ledger and a limiter each.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import sumjudge

PACKAGE = Path(sumjudge.__file__).parent
# Types and protocols an evaluator is passed as (a parameter annotated so is one).
EVALUATOR_TYPES = ("Evaluator", "BatchTarget", "ItemJudge", "Estimable")


def _modules(*, outside: tuple[str, ...] = ()) -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith(outside):
            continue
        yield rel, ast.parse(path.read_text(encoding="utf-8"))


def _functions(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def _evaluator_names(func: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """Names in `func` bound to an evaluator: by name, annotation, or an `...Evaluator(...)`."""
    names: set[str] = set()
    args = func.args
    for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
        note = ast.unparse(arg.annotation) if arg.annotation is not None else ""
        if "evaluator" in arg.arg.lower() or any(t in note for t in EVALUATOR_TYPES):
            names.add(arg.arg)
    for node in ast.walk(func):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            made = ast.unparse(node.value.func)
            if made.endswith("Evaluator"):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.Name) and "evaluator" in node.id.lower():
            names.add(node.id)
    return names


def _is_evaluator(node: ast.expr, names: set[str]) -> bool:
    if isinstance(node, ast.Name):
        return node.id in names
    return isinstance(node, ast.Attribute) and "evaluator" in node.attr.lower()


def _written(func: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[tuple[ast.expr, int]]:
    """(object, line) of every attribute `func` assigns, and every `setattr(object, ...)`."""
    for node in ast.walk(func):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            for part in ast.walk(target):  # tuple targets too
                if isinstance(part, ast.Attribute) and isinstance(part.ctx, ast.Store):
                    yield part.value, node.lineno
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "setattr"
            and node.args
        ):
            yield node.args[0], node.lineno


def test_nothing_outside_evaluators_writes_an_attribute_of_an_evaluator() -> None:
    found: set[str] = set()
    for rel, tree in _modules(outside=("evaluators/", "evaluator/")):
        for func in _functions(tree):
            names = _evaluator_names(func)
            for obj, line in _written(func):
                if _is_evaluator(obj, names):
                    found.add(f"{rel}:{line}: {ast.unparse(obj)}.<attribute> = ...")
    assert not found, "an evaluator is changed from outside:\n" + "\n".join(sorted(found))


def test_no_object_is_handed_its_evaluator_after_construction() -> None:
    """`x.evaluator = ...` from outside `x`: what an object needs, it is built with."""
    found = set()
    for rel, tree in _modules():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Assign):
                continue
            for target in node.targets:
                if (
                    isinstance(target, ast.Attribute)
                    and "evaluator" in target.attr.lower()
                    and ast.unparse(target.value) != "self"  # an object's own business
                ):
                    found.add(f"{rel}:{node.lineno}: {ast.unparse(target)} = ...")
    assert not found, "an evaluator is passed through an attribute:\n" + "\n".join(sorted(found))


def test_import_sumjudge_loads_no_batch_module() -> None:
    probe = (
        "import sumjudge, sys; "
        "assert not any(m.startswith('sumjudge.batch') for m in sys.modules), "
        "sorted(m for m in sys.modules if m.startswith('sumjudge.batch'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr


def test_only_the_runner_raises_a_cut_reply() -> None:
    found = []
    for rel, tree in _modules():
        if rel == "runner.py":
            continue
        for node in ast.walk(tree):
            raised = ast.unparse(node.exc) if isinstance(node, ast.Raise) and node.exc else ""
            if "TruncatedResponseError(" in raised:
                found.append(f"{rel}:{node.lineno}")
    assert found == [], "TruncatedResponseError raised outside the runner:\n" + "\n".join(found)


def test_no_private_key_rides_in_a_copied_dict() -> None:
    """`{**kwargs, "_mode": mode}` hands a callee a value the signature does not show."""
    found = []
    for rel, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict) and None in node.keys:  # a `**` merge
                for key in node.keys:
                    if isinstance(key, ast.Constant) and str(key.value).startswith("_"):
                        found.append(f"{rel}:{node.lineno}: {ast.unparse(node)}")
    assert found == [], "a private key in a merged dict:\n" + "\n".join(found)


def test_the_runner_frames_pass_one_call_context() -> None:
    """No function of the runner takes the item's ledger and the limiter one by one."""
    tree = ast.parse((PACKAGE / "runner.py").read_text(encoding="utf-8"))
    found = []
    for func in _functions(tree):
        params = {a.arg for a in [*func.args.args, *func.args.kwonlyargs]}
        if {"ledger", "limiter"} <= params:
            found.append(f"runner.py:{func.lineno}: {func.name}")
    assert found == [], "ledger and limiter threaded separately:\n" + "\n".join(found)
