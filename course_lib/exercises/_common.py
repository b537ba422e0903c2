"""What the student copies (:mod:`.student`) and the grader (:mod:`.grade`) both read: a
notebook's chapter and the class secret, here so that neither module imports the other."""

from __future__ import annotations

import os
import re
import secrets
import sys
from pathlib import Path
from typing import Any

__all__ = ["notebook_chapter", "read_secret"]


def notebook_chapter(nb: Any, name: str = "") -> int | None:
    """The chapter of a notebook: ``metadata.course.chapter``, else the file's ``NN_``.

    Examples
    --------
    >>> notebook_chapter({"metadata": {"course": {"chapter": 13}}})
    13
    >>> notebook_chapter({"metadata": {}}, "03_auc_pairs.ipynb")
    3
    >>> notebook_chapter({"metadata": {}}, "alice.ipynb") is None
    True
    """
    meta = nb.get("metadata", {}) if isinstance(nb, dict) else {}
    course = meta.get("course", {}) if isinstance(meta, dict) else {}
    chapter = course.get("chapter") if isinstance(course, dict) else None
    if isinstance(chapter, int) and not isinstance(chapter, bool):
        return chapter
    match = re.match(r"(\d\d)_", Path(name).name)
    return int(match.group(1)) if match else None


def read_secret(path: Path | str, *, create: bool = False) -> str:
    """The class secret kept in ``path`` (created, random and owner-only, if asked)."""
    path = Path(path)
    if not path.exists():
        if not create:
            raise ValueError(f"{path}: no class secret there (the file that made the "
                             "students' copies)")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(secrets.token_hex(16) + "\n")
        print(f"A new class secret is in {path}: keep it (the grader needs it) and never "
              "hand it out.", file=sys.stderr)
    secret = path.read_text(encoding="utf-8").strip()
    if len(secret) < 8:
        raise ValueError(f"{path}: the class secret must have at least 8 characters")
    return secret
