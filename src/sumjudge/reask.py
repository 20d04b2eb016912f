"""The two re-asks of a judge call: a repair for an unreadable reply, more room for a cut one.

Both keep the original messages first, so a provider's prompt-prefix cache still covers
the whole original prompt, and both change the request, so the response cache keys them
apart from the first ask.

- `repair_request`: the request, the bad reply and a note saying what was wrong with it.
  The runner allows two in a row: a second repair rescues most replies whose first repair
  was also unusable (issue 12's fault mix: 8 of 300 rows).
- `roomier_request`: the request with twice the reply budget and a note asking for a
  brief answer. A reply cut at the token limit is not worth re-sending as it was (at
  temperature 0 it stops at the same place), but with more room and a shorter answer it
  nearly always fits.
"""

from __future__ import annotations

from dataclasses import replace

from .protocol import JudgeRequest, Message

__all__ = ["BRIEF_NOTE", "repair_request", "roomier_request"]

#: Appended to the last message of a re-ask after a reply was cut at the token limit.
BRIEF_NOTE = (
    "Your previous reply was cut off at the length limit. Reply again with the complete "
    "JSON object, and keep every explanation brief (at most three short sentences)."
)


def repair_request(request: JudgeRequest, reply: str, problem: str) -> JudgeRequest:
    """The same request plus the bad reply and a note saying what was wrong with it."""
    note = (
        f"Your previous reply could not be used: {problem}. Reply again with only the JSON "
        "object in the required format, keeping the same judgement if it was sound."
    )
    return replace(
        request,
        messages=(
            *request.messages,
            Message.of("assistant", reply[:4000]),
            Message.of("user", note),
        ),
        task=request.task + ":repair",
    )


def roomier_request(request: JudgeRequest) -> JudgeRequest:
    """The same request with twice the reply budget and a request to be brief.

    The note goes into the last message as a new part (not a new message), so the
    conversation keeps its shape for providers that want alternating roles. A request
    without messages (for a judge that reads no prompt) gets the larger budget only.
    """
    if not request.messages:
        tail: tuple[Message, ...] = ()
    elif (last := request.messages[-1]).role == "user":
        head = request.messages[:-1]
        tail = (*head, Message(role="user", parts=(*last.parts, "\n\n" + BRIEF_NOTE)))
    else:
        tail = (*request.messages, Message.of("user", BRIEF_NOTE))
    return replace(
        request,
        messages=tuple(tail),
        max_tokens=max(2 * request.max_tokens, request.max_tokens + 256),
        task=request.task + ":room",
    )
