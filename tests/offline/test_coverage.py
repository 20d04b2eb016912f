"""Coverage of a transcript read as omissions are: speech restated, questions by their answers.

A faithful call summary was rated incomplete for covering "62% of the weighted source
content": the weights went to greetings and questions, the most repeated terms held "i'll"
and "thank", and the cosine ramp expected the near-copies of news summaries.
"""

from __future__ import annotations

import numpy as np

from sumjudge.offline.coverage import COS_HI, weighted_coverage
from sumjudge.offline.source import _embedding_importance, analyse_source, content_turn

CALL = (
    "Agent: Good morning, thanks for calling, this is Dana.\n"
    "Customer: Hi Dana. My internet keeps dropping out every evening since Monday.\n"
    "Agent: I'm sorry to hear that. Can I have your account number, please?\n"
    "Customer: Sure, it's 5502981.\n"
    "Agent: Thank you. I'll book an engineer visit for Thursday morning.\n"
    "Customer: That's great, thank you.\n"
)


def test_courtesy_and_contractions_are_not_terms_or_content() -> None:
    """Keywords and content turns leave out greetings, thanks and "I'll"."""
    info = analyse_source(CALL, None)
    terms = {w for w, _ in info.keywords}
    assert not terms & {"thank", "i'll", "i'm", "it", "morn", "good", "great"}
    assert [content_turn(info, i) for i in range(len(info.units))] == [
        False,  # greeting
        True,
        True,  # the question for the account number
        False,  # the bare answer
        True,
        False,  # thanks
    ]


def test_weights_ignore_turns_without_content() -> None:
    """A greeting central in embedding space gets no weight in a dialogue."""
    emb = np.eye(4, dtype=np.float32)
    emb[0] = 0.5  # the most central unit
    emb /= np.linalg.norm(emb, axis=1, keepdims=True)
    w = _embedding_importance(emb, True, [False, True, True, True])
    assert w[0] == 0.0 and abs(float(w.sum()) - 1.0) < 1e-6


def test_dialogue_ramp_and_answered_questions() -> None:
    """A turn restated as closely as the summary restates its best turns counts as covered;
    a question counts as covered as far as its answer does."""
    info = analyse_source(CALL, None)
    n = len(info.units)
    weights = np.full(n, 1.0 / n, dtype=np.float32)
    cos = np.full((2, n), 0.70, dtype=np.float32)
    cos[0, 1] = cos[1, 4] = 0.88  # the summary restates turns 1 and 4, as speech is restated
    cos[1, 3] = 0.88  # and the answer to the question of turn 2
    covered = weighted_coverage(info, cos, weights)
    assert abs(covered - 4 / n) < 1e-6  # turns 1, 3, 4, and the question 2 by its answer
    # prose keeps the fixed ramp: 0.88 is two thirds of the way to COS_HI
    info.dialogue = False
    assert weighted_coverage(info, cos, weights) < covered
    assert COS_HI > 0.88
