"""`sumjudge autoeval`: accuracy, adherence and completeness of conversation summaries."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from ..autoeval import AutoEvaluator, ConversationItem, DatasetSummary, SectionDefinition
from ..autoeval.evaluator import AUTO_METRICS
from ..datasets.conversations import (
    load_contact_center_dataset,
    load_sections,
    read_conversation_rows,
)
from ..errors import DataError
from ._common import EXIT_ITEM_ERRORS, EXIT_OK, choose_model, eprint

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "autoeval",
        help="judge conversation summaries on accuracy, adherence and completeness",
        description=(
            "Judge conversation summaries (free text or sections) against their transcripts "
            "on accuracy, adherence and completeness. Writes one JSON line per conversation "
            "and prints averages per metric and per section to stderr."
        ),
    )
    p.add_argument("file", nargs="?", help="JSONL with transcript and summary per row")
    p.add_argument("--sections", help="section definitions, YAML or JSON")
    p.add_argument(
        "--example", action="store_true", help="judge the bundled contact-centre examples"
    )
    p.add_argument("--model", help="provider/model or 'local' (default: see docs)")
    p.add_argument("--base-url", help="OpenAI-compatible server URL, e.g. http://127.0.0.1:8000/v1")
    p.add_argument(
        "--metrics",
        help=f"comma-separated subset of {','.join(AUTO_METRICS)},consistency",
    )
    p.add_argument("--language", help="language for justifications (default: the transcript's)")
    p.add_argument("--concurrency", type=int, default=8, help="conversations judged at once")
    p.add_argument("--rubric-cache", help="JSON file that keeps rubric questions between runs")
    p.add_argument("--transcript-column", default="transcript")
    p.add_argument("--summary-column", default="summary")
    p.add_argument("--id-column", default="id")
    p.add_argument("-o", "--output", help="write JSONL results here (default: stdout)")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.set_defaults(handler=run)


def _inputs(
    args: argparse.Namespace,
) -> tuple[Iterable[ConversationItem | DataError], list[SectionDefinition], int | None]:
    sections: list[SectionDefinition] = []
    if args.example:
        data = load_contact_center_dataset()
        items: list[ConversationItem] = data.load()
        sections = data.sections()
        if args.sections:
            sections = load_sections(args.sections)
        return items, sections, len(items)
    if not args.file:
        raise SystemExit("sumjudge: give a FILE (JSONL) with --sections, or --example")
    path = Path(args.file)
    if not path.exists():
        raise SystemExit(f"sumjudge: no such file: {path}")
    if args.sections:
        sections = load_sections(args.sections)
    else:
        eprint("sumjudge: no --sections given: adherence and completeness will be N/A")
    rows = read_conversation_rows(
        path,
        transcript_column=args.transcript_column,
        summary_column=args.summary_column,
        id_column=args.id_column,
    )
    return rows, sections, None


async def _run(args: argparse.Namespace, out: TextIO) -> int:
    items, sections, total = _inputs(args)
    model = choose_model(args.model, args.base_url)
    metrics = [m.strip() for m in args.metrics.split(",") if m.strip()] if args.metrics else None
    evaluator = AutoEvaluator(
        model,
        metrics=metrics,
        sections=sections,
        base_url=args.base_url,
        explanation_language=args.language,
        rubric_cache=args.rubric_cache,
    )
    summary = DatasetSummary()
    failures = 0
    progress: Any = None
    if not args.no_progress:
        from tqdm import tqdm

        progress = tqdm(total=total, unit="conv", file=sys.stderr, dynamic_ncols=True)
    try:
        async for record in evaluator.evaluate_batch(items, concurrency=args.concurrency):
            summary.add(record)
            if record.error is not None:
                failures += 1
                eprint(f"sumjudge: error: {record.error}")
            elif record.result is not None and record.result.errors:
                failures += 1
                failed = "; ".join(f"{m}: {e[:160]}" for m, e in record.result.errors.items())
                eprint(f"sumjudge: row {record.index}: failed: {failed}")
            out.write(json.dumps(record.to_dict(), ensure_ascii=False) + "\n")
            out.flush()
            if progress is not None:
                progress.update(1)
                progress.set_postfix(failed=failures)
    finally:
        if progress is not None:
            progress.close()
        await evaluator.aclose()
    eprint(f"sumjudge: autoeval by {evaluator.judge_name}: {summary.render()}")
    eprint(f"sumjudge: {summary.items} conversation(s) judged, {failures} with errors")
    return EXIT_ITEM_ERRORS if failures else EXIT_OK


def run(args: argparse.Namespace) -> int:
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            return asyncio.run(_run(args, fh))
    return asyncio.run(_run(args, sys.stdout))
