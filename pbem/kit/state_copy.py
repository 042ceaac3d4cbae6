"""Copying and comparing a game's state cheaply.

A state is plain JSON data (dicts, lists, strings, numbers, booleans, None),
so it needs none of :func:`copy.deepcopy`'s generality: :mod:`marshal` copies
such data in C several times faster.  Anything marshal does not take (a
dict subclass, a set, an object) falls back to :func:`copy.deepcopy`, so the
copy is always a deep one.
"""
from __future__ import annotations

import copy
import json
import marshal
from typing import Any, TypeVar

T = TypeVar("T")


def copy_state(value: T) -> T:
    """A deep copy of ``value`` (a game's state, or any part of it) that the
    caller may change freely: nothing in it is shared with ``value`` but
    immutable scalars."""
    try:
        return marshal.loads(marshal.dumps(value))
    except ValueError:  # not plain data: the general copy
        return copy.deepcopy(value)


def fingerprint(value: Any) -> str:
    """A text that changes whenever ``value`` (JSON data) changes, keys'
    order included: how the engine proves a game left its input alone without
    keeping a copy of it."""
    return json.dumps(value, separators=(",", ":"))
