"""Signals over pairs of summary sentences, in time linear in a long summary's length.

Comparing every pair of sentences costs time quadratic in their number: seconds for a
100 KB summary (900 sentences), many minutes for 1 MB. Repetition compares each sentence
with the next `REPEAT_SPAN` only (every pair of any summary of up to that many sentences
and one more, so an ordinary summary's figures are those of all its pairs); the order
signal counts inversions exactly, in O(n log n).
"""

from __future__ import annotations

from collections.abc import Sequence

# Sentences each one is compared with for repetition (the following ones).
REPEAT_SPAN = 256
REPEATED = 0.6  # the share of shared content words from which two sentences repeat


def repetition(contents: Sequence[set[str]]) -> tuple[float, list[tuple[int, int]]]:
    """The largest content-word overlap (Jaccard) of two sentences, and the repeated pairs.

    Args:
        contents: Each sentence's content words.

    Returns:
        The largest overlap (0 with fewer than two sentences) and the pairs (i, j), i < j,
        sharing at least `REPEATED` of their words, in order.
    """
    top = 0.0
    pairs: list[tuple[int, int]] = []
    n = len(contents)
    for i in range(n):
        a = contents[i]
        for j in range(i + 1, min(n, i + 1 + REPEAT_SPAN)):
            b = contents[j]
            jac = len(a & b) / len(a | b) if a and b else 0.0
            top = max(top, jac)
            if jac >= REPEATED:
                pairs.append((i, j))
    return top, pairs


def inversions(positions: Sequence[int]) -> int:
    """How many pairs i < j have positions[j] < positions[i] (a Fenwick tree over ranks)."""
    ranks = {p: r for r, p in enumerate(sorted(set(positions)), 1)}
    tree = [0] * (len(ranks) + 1)
    count = 0
    for seen, p in enumerate(positions):
        r = ranks[p]
        # earlier positions at most p: the prefix sum of the tree up to rank r
        k, at_most = r, 0
        while k:
            at_most += tree[k]
            k -= k & -k
        count += seen - at_most
        k = r
        while k < len(tree):
            tree[k] += 1
            k += k & -k
    return count
