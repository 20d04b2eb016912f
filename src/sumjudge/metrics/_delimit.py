"""Delimiters untrusted text cannot forge: tags carrying a code derived from the content.

Every prompt wraps its untrusted texts (source, transcript, summary, section definitions,
parts of a long source) in tags such as `<source-3f9a1c0b7d2e4a58> ... </source-3f9a...>`.
The code (`seal`) is the first 16 hex digits of a SHA-256 of the prompt's first text (the
source), so it is the same for every metric of an item and on every run: the response
cache and the providers' prompt-prefix caches keep hitting. It is also unguessable in the
one way that matters: a text cannot contain its own hash. A text that contains the code
anyway (someone who knows the source writes it into a summary) is handled by taking the
next code in a fixed sequence until no text of the prompt contains it.

"Contains" is checked on the text as a reader could take it: after Unicode NFKC
normalisation (full-width `＜／source＞` is `</source>`), HTML unescaping (`&lt;` is `<`,
applied until nothing changes, so `&amp;lt;` counts too), case folding, and with
whitespace and invisible format characters (zero-width spaces, joiners) removed. So no
untrusted text can produce one of the prompt's closing delimiters, in any spelling.

`neutralize` also defuses look-alikes of our plain tag names (`</source>`, `< /summary>`,
`&lt;/part&gt;`, full-width forms) so that a judge model is not tempted by them either,
although with the code they close nothing.
"""

from __future__ import annotations

import functools
import hashlib
import html
import re
import unicodedata
from itertools import count

__all__ = ["TAG_NAMES", "fenced", "neutralize", "plain", "seal"]

#: Every tag name a prompt of ours uses around untrusted text.
TAG_NAMES = ("source", "summary", "transcript", "section", "point", "part")

# A tag opener in any spelling a reader might take for one: `<` or its look-alikes
# (full-width, small, HTML entities), optional spaces or invisible characters, an
# optional slash (or full-width slash, or entity), then one of our tag names.
_LT = r"(?:<|\uff1c|\ufe64|&lt;?|&#0*60;?|&#x0*3c;?)"
_SLASH = r"(?:/|\uff0f|&#0*47;?|&#x0*2f;?|&sol;)"
_GAP = r"[\s\u200b-\u200f\u2060\ufeff]*"
_TAG = re.compile(
    _LT + _GAP + "(" + _SLASH + "?)" + _GAP + "(" + "|".join(TAG_NAMES) + r")\b",
    re.IGNORECASE,
)


_SPACES = re.compile(r"\s+")


def plain(text: str) -> str:
    """`text` as compared with delimiters: NFKC, HTML-unescaped, folded, no gaps."""
    previous = None
    while previous != text:
        previous = text
        text = html.unescape(unicodedata.normalize("NFKC", text))
    text = text.casefold()
    if text.isascii():  # no format characters possible: only the spaces go (fast path)
        return _SPACES.sub("", text)
    return "".join(c for c in text if not c.isspace() and unicodedata.category(c) != "Cf")


@functools.lru_cache(maxsize=256)  # every metric of an item seals the same texts
def seal(primary: str, *others: str) -> str:
    """The code of one prompt's delimiters: stable for `primary`, absent from every text.

    Args:
        primary: The prompt's first untrusted text (the source or transcript); the code
            depends on it alone, unless a text contains the code.
        others: The prompt's other untrusted texts (summary, definitions, ...).

    Returns:
        16 lowercase hex digits that no text contains, in any spelling (see `plain`).
    """
    texts = [plain(neutralize(t)) for t in (primary, *others)]  # as they will be shown
    seed = primary.encode("utf-8", "surrogatepass")
    for n in count():
        token = hashlib.sha256(seed + b"\x00" + str(n).encode()).hexdigest()[:16]
        if not any(token in t for t in texts):
            return token
    raise AssertionError("unreachable")  # pragma: no cover


def fenced(tag: str, token: str, text: str, attributes: str = "") -> str:
    """`text` between `<tag-token ...>` and `</tag-token>`, its look-alike tags defused."""
    return f"<{tag}-{token}{attributes}>\n{neutralize(text)}\n</{tag}-{token}>"


def neutralize(text: str) -> str:
    """Defuse look-alikes of our tag names inside untrusted text.

    `</summary>` inside a summary becomes `<\u200b/summary>` (and `&lt;/part` becomes
    `<\u200b/part`): readable as text, not a tag.
    """
    return _TAG.sub(lambda m: "<\u200b" + ("/" if m.group(1) else "") + m.group(2), text)
