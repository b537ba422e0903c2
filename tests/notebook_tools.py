"""Reading stored notebooks in tests: glued values and printed outputs."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GLUE_MIME = "application/papermill.record/text/plain"


def load(path: Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def chapter(name: str) -> Path:
    """The stored notebook ``notebooks/<name>.ipynb``."""
    return ROOT / "notebooks" / f"{name}.ipynb"


def glued(path: Path) -> dict[str, str]:
    """The text/plain value of every ``glue`` call stored in a notebook.

    Strings come back with their quotes (``"'19/24'"``), numbers as printed (``"0.25"``).
    """
    values = {}
    for cell in load(path)["cells"]:
        for out in cell.get("outputs", []):
            key = out.get("metadata", {}).get("scrapbook", {}).get("name")
            if key is not None:
                values[key] = out["data"][GLUE_MIME]
    return values


def cell_text(path: Path) -> str:
    """All stored stream and text/plain outputs of a notebook, joined."""
    parts = []
    for cell in load(path)["cells"]:
        for out in cell.get("outputs", []):
            parts.append("".join(out.get("text", "")))
            parts.append("".join(out.get("data", {}).get("text/plain", "")))
    return "\n".join(parts)


def stored(value):
    """``value`` as a chapter stores it: floats rounded like every glued value.

    The chapters glue through :func:`course_lib.notebook.glue`, which keeps
    :data:`course_lib.notebook.SIGNIFICANT_DIGITS` significant digits; a fact test compares
    the stored value with the exact one rounded the same way, so a change in any kept digit
    fails.
    """
    from course_lib.notebook import round_significant

    return round_significant(value)
