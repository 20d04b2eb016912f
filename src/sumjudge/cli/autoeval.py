"""`sumjudge autoeval`: accuracy, adherence and completeness of conversation summaries.

Runs on the same batch engine and flags as `sumjudge evaluate` (`cli/_batch.py`): response
cache (on by default), `--resume`, rate limits, `--max-cost`, `--dry-run`, prices, run
summary, progress with spend, key redaction and the same exit codes. At the end the
dataset-level averages per metric and per section go to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..autoeval import AutoEvaluator, ConversationItem, DatasetSummary, SectionDefinition
from ..datasets.conversations import (
    load_contact_center_dataset,
    load_sections,
    read_conversation_rows,
)
from ..datasets.files import count_rows
from ..errors import DataError
from ..evaluators.auto import AUTO_METRICS
from ..runner import RunSummary
from ._batch import (
    EXIT_STOPPED,
    BatchProgress,
    RecordSink,
    add_batch_arguments,
    cache_from_args,
    price_from_args,
    redact,
    retry_policy_from_args,
    secrets_from_env,
)
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
    p.add_argument(
        "file", nargs="?", help="JSONL, CSV or Parquet with transcript and summary per row"
    )
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
    p.add_argument("--rubric-cache", help="JSON file that keeps rubric questions between runs")
    p.add_argument("--transcript-column", default="transcript")
    p.add_argument("--summary-column", default="summary")
    p.add_argument("--id-column", default="id")
    p.add_argument(
        "--report",
        metavar="HTML",
        help="also write a self-contained HTML report here (results go to -o, or next to it)",
    )
    add_batch_arguments(p)
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
        raise SystemExit(
            "sumjudge: give a FILE (JSONL, CSV or Parquet) with --sections, or --example"
        )
    path = Path(args.file)
    if not path.exists():
        raise SystemExit(f"sumjudge: no such file: {path}")
    if args.sections:
        sections = load_sections(args.sections)
    else:
        eprint("sumjudge: no --sections given: adherence and completeness will be N/A")
    return _rows(args), sections, count_rows(path)


def _rows(args: argparse.Namespace) -> Iterable[ConversationItem | DataError]:
    return read_conversation_rows(
        Path(args.file),
        transcript_column=args.transcript_column,
        summary_column=args.summary_column,
        id_column=args.id_column,
    )


async def _run(args: argparse.Namespace) -> int:
    items, sections, total = _inputs(args)
    model = choose_model(args.model, args.base_url)
    metrics = [m.strip() for m in args.metrics.split(",") if m.strip()] if args.metrics else None
    table, price = price_from_args(args)
    evaluator = AutoEvaluator(
        model,
        metrics=metrics,
        sections=sections,
        base_url=args.base_url,
        explanation_language=args.language,
        rubric_cache=args.rubric_cache,
        retry_policy=retry_policy_from_args(args),
        timeout=args.timeout,
        cache=cache_from_args(args),
        prices=table,
        price=price,
        context_window=args.context_window,
    )
    secrets = secrets_from_env()
    try:
        if args.dry_run:
            estimate = evaluator.estimate_cost(items)
            for line in estimate.lines():
                eprint(redact(f"sumjudge: {line}", secrets))
            print(redact(json.dumps(estimate.to_dict(), indent=2), secrets))
            return EXIT_OK
        if args.report and not args.output:
            args.output = str(Path(args.report).with_suffix(".jsonl"))
            eprint(f"sumjudge: results for the report go to {args.output}")
        with RecordSink(args.output, resume=args.resume, secrets=secrets) as sink:
            code = await _judge(args, evaluator, items, total, sink, secrets)
        if args.report:
            _write_report(args, evaluator.judge_name)
        return code
    finally:
        await evaluator.aclose()
        if evaluator.cache is not None:
            evaluator.cache.close()


async def _judge(
    args: argparse.Namespace,
    evaluator: AutoEvaluator,
    items: Iterable[ConversationItem | DataError],
    total: int | None,
    sink: RecordSink,
    secrets: list[str],
) -> int:
    summary = RunSummary()
    averages = DatasetSummary()
    if sink.done:
        eprint(f"sumjudge: resuming: {len(sink.done)} item(s) already done in {args.output}")
        if total is not None:
            total -= len(sink.done)
    progress = BatchProgress(total, enabled=not args.no_progress)
    try:
        async for record in evaluator.evaluate_batch(
            items,
            concurrency=args.concurrency,
            requests_per_minute=args.rpm,
            tokens_per_minute=args.tpm,
            max_cost=args.max_cost,
            skip=sink.done,
            summary=summary,
        ):
            averages.add(record)
            sink.write(record.to_dict())
            if record.error is not None:
                progress.write(redact(f"sumjudge: error: {record.error}", secrets))
            elif record.status == "failed":
                reasons = "; ".join(
                    f"{f.get('metric') or 'item'}: {str(f['reason'])[:160]}"
                    for f in record.failures
                )
                progress.write(redact(f"sumjudge: row {record.index} failed: {reasons}", secrets))
            progress.update(summary)
    finally:
        progress.close()
    done_note = " (this run; resumed items not included)" if sink.done else ""
    eprint(
        redact(
            f"sumjudge: autoeval by {evaluator.judge_name}{done_note}: {averages.render()}", secrets
        )
    )
    failures = summary.failed + summary.invalid
    eprint(
        f"sumjudge: {summary.ok + summary.failed} conversation(s) judged, {failures} with errors"
    )
    for line in summary.lines():
        eprint(redact(f"sumjudge: {line}", secrets))
    if args.summary_json:
        blob = json.dumps(
            {"judge": evaluator.judge_name, **summary.to_dict(), "averages": averages.to_dict()},
            indent=2,
        )
        Path(args.summary_json).write_text(redact(blob, secrets) + "\n", encoding="utf-8")  # noqa: ASYNC240
    if summary.stopped:
        return EXIT_STOPPED
    return EXIT_ITEM_ERRORS if failures else EXIT_OK


def _write_report(args: argparse.Namespace, judge: str) -> None:
    from ..report import write_report

    # A file is re-read through the loader, so any file type and column names give the
    # report's "transcript"/"summary" rows (an unusable row keeps its position).
    inputs: Any = load_contact_center_dataset().load() if args.example else list(_rows(args))
    path = write_report(
        args.output, args.report, inputs=inputs, title=f"sumjudge autoeval ({judge})"
    )
    eprint(f"sumjudge: report written to {path}")


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_run(args))
