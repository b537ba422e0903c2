"""What the report's page header states and a validator signs: the title, the model, the
window of the data and the run date (issue 27, item 7).

The run date is the UTC date of the run, or the date of ``SOURCE_DATE_EPOCH`` (seconds
since 1970, the reproducible-builds convention) when that variable is set, so a test or
an archived rerun gives the same page; ``run_date=`` fixes it by hand.
"""

from __future__ import annotations

import datetime as dt
import os
from typing import Any

__all__ = ["DEFAULT_TITLE", "MAX_LENGTH", "header", "run_date"]

#: The page's title when none is given.
DEFAULT_TITLE = "Validation report"

#: The longest title, model or window accepted (it must fit a printed page's header).
MAX_LENGTH = 120


def run_date(value: Any = None) -> str:
    """The run date as an ISO date ``YYYY-MM-DD`` (UTC).

    ``value``: a :class:`datetime.date` (or datetime), an ISO date string, or None for
    the date of ``SOURCE_DATE_EPOCH`` when it is set, else today's.

    >>> run_date("2025-12-31")
    '2025-12-31'
    >>> run_date(dt.date(2026, 1, 2))
    '2026-01-02'
    """
    if value is None:
        epoch = os.environ.get("SOURCE_DATE_EPOCH")
        if epoch is not None and epoch.strip():
            try:
                seconds = int(epoch.strip())
            except ValueError:
                raise ValueError(
                    f"SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01, got {epoch!r}"
                ) from None
            return dt.datetime.fromtimestamp(seconds, tz=dt.UTC).date().isoformat()
        return dt.datetime.now(tz=dt.UTC).date().isoformat()
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(dt.UTC)
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip()).isoformat()
        except ValueError:
            raise ValueError(f"run_date must be an ISO date YYYY-MM-DD, got {value!r}") from None
    raise ValueError(f"run_date must be a date or an ISO date string, got {value!r}")


def _text(value: Any, name: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{name} must be text, got {type(value).__name__} {value!r}")
    text = " ".join(value.split())  # one line: the printed header has one
    if not text:
        return None
    if len(text) > MAX_LENGTH:
        raise ValueError(
            f"{name} is {len(text)} characters long; at most {MAX_LENGTH} fit the page header"
        )
    return text


def header(*, title: Any = None, model: Any = None, window: Any = None,
           date: Any = None) -> dict[str, str | None]:
    """The ``header`` of a Report: title (default :data:`DEFAULT_TITLE`), model, window
    (None when not given) and the run date, each validated and on one line.

    >>> header(title="Retail PD", model="PD v3.2", window="2025-01 to 2025-12",
    ...        date="2026-02-01")
    {'title': 'Retail PD', 'model': 'PD v3.2', 'window': '2025-01 to 2025-12', 'run_date': '2026-02-01'}
    >>> header(date="2026-02-01")["title"]
    'Validation report'
    """
    return {
        "title": _text(title, "title") or DEFAULT_TITLE,
        "model": _text(model, "model"),
        "window": _text(window, "window"),
        "run_date": run_date(date),
    }
