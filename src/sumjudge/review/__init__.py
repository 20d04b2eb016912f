"""`sumjudge review`: people label judged items in a local web page (docs/review.md).

`load` reads the results, inputs and label log; `order` decides which item comes next;
`payload` turns an item into the page's JSON; `session` holds one reviewer's state and
appends their labels; `server` is the aiohttp app on 127.0.0.1; `page` and `script` are
the page itself.
"""

from __future__ import annotations

from .load import ReviewItem, default_labels_path, load_items, load_labels
from .order import ORDERS, Ordering, Signals, order_items
from .server import make_app, serve
from .session import ReviewSession

__all__ = [
    "ORDERS",
    "Ordering",
    "ReviewItem",
    "ReviewSession",
    "Signals",
    "default_labels_path",
    "load_items",
    "load_labels",
    "make_app",
    "order_items",
    "serve",
]
