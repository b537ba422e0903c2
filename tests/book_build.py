"""The built book, shared by every test that reads it: one build for a given state of the
sources, whatever the number of tests, pytest-xdist workers or runs that need it.

``built(builder)`` builds the book with jupyter-book exactly as ``make book`` (``html``)
and ``make singlehtml`` (for the PDF) do, warnings as errors, into ``_build/tests/book/``
(never into the author's ``_build/html``). Both builders read one Sphinx environment
(``_build/tests/book/_build/.doctrees``), as ``make book`` and ``make pdf`` share
``_build/.doctrees``: the second build reads no page again.

A finished build is stamped with a fingerprint of what it reads: every file of the
repository outside ``tests/`` and the build folders (the chapters, the book's pages and
extensions, ``course_lib`` and the answer key they import, the configuration) and the
versions of the installed packages. A build whose fingerprint differs from the sources'
is removed and the book built afresh (never incrementally); the same fingerprint means
the same sources, so a run after an unchanged one reuses the book. A fresh clone has no
build and builds it. A file lock makes the other workers wait for that one build
instead of running their own.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.metadata
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "_build" / "tests" / "book"
JUPYTER_BOOK = Path(sys.executable).with_name("jupyter-book")
FLAGS = ["-W", "-n", "--keep-going"]  # the Makefile's BOOK_FLAGS
TIMEOUT = 900

#: Folders that the book's build does not read (the tests, caches and build outputs).
SKIP_DIRS = {".git", ".venv", "_build", "tests", "__pycache__", ".pytest_cache",
             ".hypothesis", ".ipynb_checkpoints", ".mypy_cache", ".ruff_cache"}


def fingerprint() -> str:
    """SHA-256 of the sources of the book (names and contents), the installed packages'
    versions, the interpreter and the build's flags."""
    digest = hashlib.sha256()
    digest.update(repr((sys.executable, sys.version, FLAGS)).encode())
    for dist in sorted(f"{d.metadata['Name']}=={d.version}"
                       for d in importlib.metadata.distributions()):
        digest.update(dist.encode() + b"\n")
    files = []
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info")
                   and not (folder == str(ROOT) and d == "build")]  # setuptools' /build/
        files += [Path(folder) / n for n in names if not n.endswith((".pyc", ".lock"))]
    for path in sorted(files):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0")
        try:
            digest.update(hashlib.sha256(path.read_bytes()).digest())
        except OSError:  # removed while we walked (an editor's temporary file)
            digest.update(b"gone")
    return digest.hexdigest()


def built(builder: str) -> Path:
    """The output folder of ``builder`` (``html`` or ``singlehtml``) for the sources as
    they are now, built here unless a build of the same sources is stamped; a failed
    build raises AssertionError with the end of its output."""
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with open(OUT.parent / "book.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        current = fingerprint()
        stamp = OUT / "fingerprint"
        if not (stamp.is_file() and stamp.read_text() == current):
            shutil.rmtree(OUT, ignore_errors=True)
            OUT.mkdir(parents=True)
            stamp.write_text(current)
        done = OUT / f"{builder}.built"
        if not done.is_file():
            proc = subprocess.run(
                [str(JUPYTER_BOOK), "build", str(ROOT), "--builder", builder,
                 "--path-output", str(OUT), *FLAGS],
                capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT,
            )  # (the configuration names files relative to the repository)
            (OUT / f"{builder}.log").write_text(proc.stdout + proc.stderr)
            assert proc.returncode == 0, (
                f"{builder} build failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
            done.write_text(current)
    return OUT / "_build" / builder
