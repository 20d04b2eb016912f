"""A judge that replays scripted replies: for tests, demos and users' own test suites.

Example:
    >>> judge = ScriptedJudge([{"explanation": "Clear.", "score": 3}])
    >>> # await judge.complete(request) -> JudgeResponse(text='{"explanation": ...}')

Each script item is one of:
- a `dict` or `list`: sent back as its JSON text (the parser then reads it, as for a
  provider without native structured output);
- a `str`: sent back verbatim (fenced JSON, prose, broken JSON...);
- a `JudgeResponse`: returned as is (to script logprobs, usage or truncation);
- an exception instance: raised (to script provider faults).
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeAlias

from ..errors import ScriptExhaustedError
from ..protocol import LLM_CAPABILITIES, JudgeRequest, JudgeResponse, Usage

__all__ = ["ScriptItem", "ScriptedJudge"]

ScriptItem: TypeAlias = "dict[str, Any] | list[Any] | str | JudgeResponse | BaseException"


class ScriptedJudge:
    """Replays responses or raises errors in order, and records every request.

    Args:
        script: replies in the order they are to be given, or a mapping from a task
            prefix (such as "coherence") to that task's own queue of replies. Requests
            whose task matches no key use the "*" queue if present.
        responder: called for a request when its queue is empty; return a script item.
            Without it, running out of script raises `ScriptExhaustedError`.
        name: the judge name reported in results ("scripted/..." by default).
        delay: seconds to sleep per call, to exercise concurrency.
    """

    def __init__(
        self,
        script: Iterable[ScriptItem] | Mapping[str, Iterable[ScriptItem]] = (),
        *,
        responder: Callable[[JudgeRequest], ScriptItem] | None = None,
        name: str = "scripted/judge",
        delay: float = 0.0,
    ) -> None:
        self.name = name
        self.requests: list[JudgeRequest] = []
        self._responder = responder
        self._delay = delay
        self._queues: dict[str, deque[ScriptItem]] = {}
        if isinstance(script, Mapping):
            for key, items in script.items():
                self._queues[key] = deque(items)
        else:
            self._queues["*"] = deque(script)

    @property
    def remaining(self) -> int:
        """How many scripted replies have not been used."""
        return sum(len(q) for q in self._queues.values())

    def requests_for(self, task_prefix: str) -> list[JudgeRequest]:
        """The recorded requests whose task starts with `task_prefix`."""
        return [r for r in self.requests if r.task.startswith(task_prefix)]

    def _queue_for(self, task: str) -> deque[ScriptItem] | None:
        best: str | None = None
        for key in self._queues:
            if key != "*" and task.startswith(key) and (best is None or len(key) > len(best)):
                best = key
        if best is not None:
            return self._queues[best]
        return self._queues.get("*")

    capabilities = LLM_CAPABILITIES

    @property
    def identity(self) -> str:
        """The cache identity: the name (a scripted judge has no server)."""
        return self.name

    async def complete(self, request: JudgeRequest) -> JudgeResponse:
        """Record `request` and answer it with the next script item for its task.

        The queue is the one whose key is the longest prefix of the task, else "*"; an
        empty queue falls back to the responder. An exception item is raised; any other
        becomes a reply, with rough token counts (4 characters per token).

        Raises:
            ScriptExhaustedError: no script item is left and there is no responder.
        """
        self.requests.append(request)
        queue = self._queue_for(request.task)
        if queue:
            item = queue.popleft()
        elif self._responder is not None:
            item = self._responder(request)
        else:
            raise ScriptExhaustedError(
                f"ScriptedJudge has no reply left for request #{len(self.requests)} "
                f"(task {request.task!r}); give it more script items or a responder"
            )
        if self._delay:
            await asyncio.sleep(self._delay)
        if isinstance(item, BaseException):
            raise item
        if isinstance(item, JudgeResponse):
            return item
        text = item if isinstance(item, str) else json.dumps(item, ensure_ascii=False)
        tokens = max(1, len(text) // 4)
        prompt = max(1, len(request.prompt_text()) // 4)
        return JudgeResponse(
            text=text,
            finish_reason="stop",
            usage=Usage(prompt_tokens=prompt, completion_tokens=tokens),
            model=self.name.split("/", 1)[-1],
        )

    async def aclose(self) -> None:
        """Do nothing: a scripted judge holds no network resources."""
        return None
