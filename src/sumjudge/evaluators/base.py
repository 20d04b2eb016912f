"""The evaluator lifecycle shared by `SummarizationEvaluator` and `AutoEvaluator`.

One item travels one path: item -> (prepare) -> plan -> requests -> runner -> judge ->
readers -> finish -> assemble -> record. The base owns construction (judge or offline
backend, cache, prices, context window), `evaluate` / `evaluate_result` /
`evaluate_batch` / `estimate_cost`, the records and the async context manager. A
subclass says only what differs: how a raw input becomes its item, the item's plan, and
how the metrics' results assemble into its result.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Container, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ..accounting import CallContext, RunSummary
from ..cache import ResponseCache
from ..cost import CostEstimate, ModelTable, Price
from ..errors import ConfigError, DataError
from ..plan import requests_of
from ..protocol import Judge, JudgeRequest
from ..runner import JudgeCaller, RetryPolicy, settle_all
from ..tokens import ContextFit, check_context
from .estimate import estimate_items
from .execute import ItemRun, Stages, flatten
from .online import NO_LIMITS, OnlineRun, RunLimits
from .options import open_cache
from .panel import build_members, panel_execute, panel_identity
from .records import ItemResult, Record, error_failure, item_failure, item_id

if TYPE_CHECKING:  # batch/ loads only for a batch run: `import sumjudge` stays without it
    from ..batch.options import BatchOptions, BatchReport

__all__ = ["Evaluator"]

ItemT = TypeVar("ItemT")
ResultT = TypeVar("ResultT", bound=ItemResult)


class _Unfit(Exception):
    def __init__(self, fit: ContextFit) -> None:
        self.fit = fit


class Evaluator(Generic[ItemT, ResultT]):
    """The shared lifecycle; subclasses supply the item type, its plan and its assembly.

    Args:
        model: "provider/model", "local" / "local-lexical" (the offline judge), or a
            Judge object; a list of them is a judge panel where the evaluator supports
            one (`supports_panel`, see `evaluators/panel.py`).
        model_credentials: the provider's API key; defaults to its environment variable.
        base_url: an OpenAI-compatible (or Gemini-compatible) server to send requests to.
        retry_policy: back-off, attempts and per-call timeout.
        timeout: the provider adapter's own timeout per request, in seconds.
        repair: re-ask once when a reply cannot be read.
        cache: the judge-response cache: a `ResponseCache`, a path, True for the default
            location (`$SUMJUDGE_CACHE_DIR` or the user cache dir), or None/False for none.
        prices: price/context-window overrides (a `ModelTable`, a mapping or a JSON file).
        price: the judge's price, overriding the table.
        context_window: the judge's context window in tokens, overriding the table.
        long_source: what to do with a source that does not fit the judge's context
            window: "fail" (the item fails, stating the window and the size) or "chunked"
            (`evaluators/longsource.py`). Never truncated silently.
        batch_api: `evaluate_batch` through the provider's batch endpoint (docs/batch.md).
    """

    supports_panel = False
    """Whether `model` may be a list of judges (a panel)."""

    def __init__(
        self,
        model: str | Judge | Sequence[str | Judge],
        model_credentials: str | None = None,
        *,
        base_url: str | None = None,
        retry_policy: RetryPolicy | None = None,
        timeout: float = 120.0,
        repair: bool = True,
        cache: ResponseCache | str | Path | bool | None = None,
        prices: ModelTable | Mapping[str, Any] | str | Path | None = None,
        price: Price | None = None,
        context_window: int | None = None,
        long_source: str = "fail",
        batch_api: bool | BatchOptions = False,
    ) -> None:
        if long_source not in ("fail", "chunked"):
            raise ConfigError(f"long_source {long_source!r}: choose fail or chunked")
        self.long_source = long_source
        self.repair = repair
        models: list[str | Judge] = (
            list(model) if isinstance(model, (list, tuple)) else [model]  # type: ignore[list-item]
        )
        if len(models) > 1 and not self.supports_panel:
            raise ConfigError(f"{type(self).__name__} takes one model, not a panel")
        if len(models) > 1 and long_source == "chunked":
            raise ConfigError("a judge panel cannot judge long sources by parts (long_source)")
        self.models = prices if isinstance(prices, ModelTable) else ModelTable(prices)
        self.cache: ResponseCache | None
        self.cache, self._owns_cache = open_cache(cache)
        members = build_members(
            models,
            credentials=model_credentials,
            base_url=base_url,
            timeout=timeout,
            retry_policy=retry_policy,
            cache=self.cache,
            table=self.models,
            price=price,
        )
        self.judge: Judge = members[0].judge
        self.caller = members[0].caller
        self.capabilities = self.judge.capabilities
        # The metrics render no prompt for a judge that reads only a request's kind and
        # subject (the offline judge); a panel gets one when any member reads it.
        self.reads_prompt = any(m.judge.capabilities.reads_prompt for m in members)
        self.members = members if len(members) > 1 else []
        self.judge_name: str
        self.judge_name, self.price, window = panel_identity(members, self.models)
        self.context_window = context_window or window
        self.last_summary: RunSummary | None = None
        self.last_panel_costs: dict[str, dict[str, Any]] | None = None
        self.last_batch: BatchReport | None = None
        self.batch_options: BatchOptions | None = None
        if batch_api:  # every price of the run (dry run, records, max_cost) is the batch price
            from ..batch.run import batch_options

            self.batch_options = batch_options(batch_api, self.judge, panel=bool(self.members))
            self.price = self.models.batch_price(self.judge_name, self.price)

    # -- what a subclass supplies -------------------------------------------------------------
    def coerce(self, raw: Any, index: int | str | None) -> ItemT:
        """The validated item for a raw input; raises `DataError` naming the field."""
        raise NotImplementedError

    def plan(self, item: ItemT, prepared: Any) -> Stages:
        """The item's metric plans, built once per item."""
        raise NotImplementedError

    def assemble(self, item: ItemT, results: dict[str, Any]) -> ResultT:
        """The item's result from its metrics' results (and the rules, where they apply)."""
        raise NotImplementedError

    def unfit(self, item: ItemT, reason: str) -> ResultT:
        """The result of an item whose source does not fit the judge (every metric failed)."""
        raise NotImplementedError

    def source_text(self, item: ItemT) -> str:
        """The item's source, for the context-window message."""
        raise NotImplementedError

    @property
    def metric_versions(self) -> dict[str, str]:
        """Version tags of the requested metrics (prompt changes bump them)."""
        raise NotImplementedError

    async def prepare(self, item: ItemT, run: ItemRun) -> Any:
        """Judge calls the plan depends on (rubric questions); None when there are none."""
        return None

    def prepare_estimate(self, item: ItemT, estimate: CostEstimate) -> Any:
        """What `prepare` would give, for a dry run (counting the requests it would send)."""
        return None

    async def judge_long(
        self, item: ItemT, prepared: Any, window: int, run: ItemRun
    ) -> tuple[ResultT, dict[str, Any]]:
        """Judge an item whose source does not fit (`long_source="chunked"`)."""
        raise ConfigError(f"long_source='chunked' is not available for {type(self).__name__}")

    def long_requests(self, item: ItemT, prepared: Any, window: int) -> list[JudgeRequest]:
        """The first-try requests `judge_long` would send (for a dry run)."""
        raise ConfigError(f"long_source='chunked' is not available for {type(self).__name__}")

    def meta_base(self) -> dict[str, Any]:
        """The `meta` every record of a batch starts with."""
        meta: dict[str, Any] = {"judge": self.judge_name, "metric_versions": self.metric_versions}
        if self.members:
            meta["panel"] = [m.name for m in self.members]
        return meta

    async def execute(self, stages: Stages, run: ItemRun) -> dict[str, Any]:
        """Every metric's result of an item's plan: by the judge, or by every panel member."""
        if not self.members:
            return await run.execute(stages)
        metrics = list(self.metric_versions)
        return await panel_execute(self.members, stages, run, metrics, self.panel_aggregate)

    panel_aggregate = "median"
    """How a panel's scores become one (see `evaluators/panel.py`)."""

    def callers(self) -> list[JudgeCaller]:
        """The callers that send this evaluator's requests (one per panel member)."""
        return [m.caller for m in self.members] or [self.caller]

    # -- one item -----------------------------------------------------------------------------
    async def _judge(self, item: ItemT, run: ItemRun) -> tuple[ResultT, dict[str, Any] | None]:
        # The plan before any call: what does not depend on earlier calls (all of it for
        # summaries; for conversations all but the rubric questions). An item that does
        # not fit fails here, before anything is sent for it.
        stages = self.plan(item, None)
        fit = self._fit(item, stages)
        prepared = None
        if fit.fits:
            prepared = await self.prepare(item, run)
            if prepared is not None:
                stages = self.plan(item, prepared)
                fit = self._fit(item, stages)
        if fit.fits:
            return self.assemble(item, await self.execute(stages, run)), None
        if self.long_source == "chunked" and fit.window:
            if prepared is None:
                prepared = await self.prepare(item, run)
            return await self.judge_long(item, prepared, fit.window, run)
        raise _Unfit(fit)

    def _fit(self, item: ItemT, stages: Stages) -> ContextFit:
        requests = requests_of(flatten(stages))
        return check_context(requests, self.context_window, self.source_text(item))

    def plan_requests(self, data: Any, prepared: Any = None) -> list[JudgeRequest]:
        """The first-try requests judging one item sends, in order (for inspection)."""
        item = self.coerce(data, item_id(data))
        return requests_of(flatten(self.plan(item, prepared)))

    async def evaluate(self, data: Any) -> dict[str, Any]:
        """Judge one item and return its JSON as a dict."""
        return (await self.evaluate_result(data)).to_dict()

    async def evaluate_result(self, data: Any, index: int | str | None = None) -> ResultT:
        """Judge one item and return the typed result.

        Raises `DataError` (naming the field) if the item is unusable. A source that does
        not fit the judge's window gives a result whose metrics all failed with the sizes
        (or is judged in chunks with `long_source="chunked"`).
        """
        item = self.coerce(data, index if index is not None else item_id(data))
        try:
            alone = CallContext(repair=self.repair)
            panel = [(m.name, m.caller, alone) for m in self.members]
            run = ItemRun.start(self.caller, alone, panel)
            result, _ = await self._judge(item, run)
        except _Unfit as unfit:
            return self.unfit(item, unfit.fit.message(self.judge_name))
        finally:  # the item's replies are on disk when it returns, as a run's are
            settle_all([self.caller, *(m.caller for m in self.members)])
        return result

    # -- many items ---------------------------------------------------------------------------
    def evaluate_batch(
        self,
        items: Iterable[Any],
        *,
        concurrency: int = 8,
        requests_per_minute: float | None = None,
        tokens_per_minute: float | None = None,
        max_cost: float | None = None,
        skip: Container[int] | None = None,
        summary: RunSummary | None = None,
        calls_in_flight: int | None = None,
    ) -> AsyncIterator[Record]:
        """Judge many items, yielding one record per item as it finishes.

        Every item ends as exactly one record (`Record.status`): judged ("ok", or
        "failed" with each failed metric's reason and attempts), invalid input (a bad
        item, or a `DataError` a loader put in its place, becomes a record with `error`),
        or "not_run" (after `max_cost`, a refused key or a server that is not there: calls
        in flight finish, no more are sent; `summary.key_refused` / `.unreachable`).
        Records carry the input's 0-based `index`.

        Args:
            items: the inputs, pulled lazily (so a file of any size streams through).
            concurrency: items judged at once.
            requests_per_minute: client-side cap on judge requests (None: no cap).
            tokens_per_minute: client-side cap on prompt + completion tokens.
            max_cost: stop starting new items once this many USD were spent in this run;
                the rest are yielded with status "not_run". Needs a price.
            skip: input indices not to judge at all (already done: resume). They are not
                yielded; `summary.skipped` counts them.
            summary: a `RunSummary` to fill in (also kept as `self.last_summary`).
            calls_in_flight: judge calls in flight at most, across items (a panel: per
                member). None: only `concurrency` bounds them (items x their calls).
                With a bound, set `concurrency` above it / calls per item, so that an
                item waiting on its slowest call does not leave a slot idle
                (docs/concurrency.md).

        With `batch_api=` the requests go to the provider's batch endpoint
        (`batch.run.BatchRun`, docs/batch.md; `self.last_batch` is its report) and the
        rate limits do not apply.
        """
        if self.batch_options is not None:
            from ..batch.run import BatchRun

            batch = BatchRun(self, self.batch_options, max_cost=max_cost)
            self.last_batch = batch.report
            return batch.records(items, concurrency=concurrency, skip=skip, summary=summary)
        limits = RunLimits(requests_per_minute, tokens_per_minute, max_cost, calls_in_flight)
        return self.online_records(
            items,
            caller=self.caller,
            concurrency=concurrency,
            limits=limits,
            skip=skip,
            summary=summary,
        )

    async def online_records(
        self,
        items: Iterable[Any],
        *,
        caller: JudgeCaller,
        concurrency: int = 8,
        limits: RunLimits = NO_LIMITS,
        skip: Container[int] | None = None,
        summary: RunSummary | None = None,
    ) -> AsyncIterator[Record]:
        """`evaluate_batch` online, every request through `caller` (a panel: its members').

        `evaluate_batch` gives the evaluator's own caller; a batch run's passes give theirs
        (collected replies and a read-only cache, then the real cache: `batch/rounds.py`)
        and no `limits`: a batch pass sends nothing, and rounds check `max_cost` themselves.
        """
        online = OnlineRun(self, caller, limits=limits, summary=summary)
        self.last_summary = online.summary
        async for record in online.records(items, concurrency=concurrency, skip=skip):
            self.last_panel_costs = online.summary.panel
            yield record
        self.last_panel_costs = online.summary.panel

    async def record(self, index: int, raw: Any, meta_base: dict[str, Any], run: ItemRun) -> Record:
        """The record of one input of a batch (its `index`), judged through `run`."""
        if isinstance(raw, DataError):  # a reader's row error: it knows the row's id
            return Record(index=index, id=raw.id, error=raw)
        try:
            item = self.coerce(raw, index)
        except DataError as exc:
            return Record(index=index, id=item_id(raw), error=exc)
        meta = dict(meta_base)
        ident = item_id(item)
        try:
            result, context = await self._judge(item, run)
        except _Unfit as unfit:
            meta["context"] = unfit.fit.to_dict()
            failure = item_failure("context", unfit.fit.message(self.judge_name))
            return Record(index=index, id=ident, meta=meta, failure=failure)
        except Exception as exc:  # an item must end as a record, whatever happened
            return Record(index=index, id=ident, meta=meta, failure=error_failure(exc))
        if context is not None:
            meta["context"] = context
        meta["run"] = run.ledger.to_dict()
        return Record(index=index, id=ident, result=result, meta=meta, ledger=run.ledger)

    # -- before a run -------------------------------------------------------------------------
    def estimate_cost(self, items: Iterable[Any]) -> CostEstimate:
        """A dry run: the requests, tokens and cost a batch would need; no judge is called.

        Requests already in the response cache are counted as free; a source beyond the
        window counts what its `long_source` strategy would send (see `estimate.py`).
        """
        return estimate_items(self, items)

    # -- lifecycle ----------------------------------------------------------------------------
    async def aclose(self) -> None:
        """Release the judge's connections and close a cache the evaluator opened."""
        for caller in self.callers():
            await caller.loop_guard.disarm()
        for judge in [m.judge for m in self.members] or [self.judge]:
            await judge.aclose()
        if self.cache is not None and self._owns_cache:
            self.cache.close()

    async def __aenter__(self) -> Any:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
