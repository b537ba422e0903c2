"""The learning path: every chapter says what it teaches, what it needs and how long it
takes, and ends with a checkpoint; the landing page and "How to use this book" show the
table built from the chapters (``book/_ext/learning_path.py``)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import learning_path  # noqa: E402

from course_lib.exercises import REGISTRY  # noqa: E402

DOCS = learning_path.toc_chapters()


def test_every_numbered_chapter_of_the_toc_is_a_notebook():
    assert len(DOCS) == len(list((ROOT / "notebooks").glob("*.ipynb"))) == 18


@pytest.mark.parametrize("doc", DOCS)
def test_each_chapter_opens_with_goals_needs_summary_and_track(doc):
    number = DOCS.index(doc) + 1
    chapter = learning_path.read_chapter(number, doc)
    assert 3 <= len(chapter.goals) <= 5, chapter.goals
    assert all(g[0].isupper() or g[0] in "$`" for g in chapter.goals), chapter.goals
    assert chapter.track in learning_path.TRACKS
    assert len(chapter.summary) <= 140 and "\n" not in chapter.summary, chapter.summary
    for need in chapter.needs:  # only earlier chapters (or the book's pages)
        assert need not in DOCS or DOCS.index(need) < DOCS.index(doc), (doc, need)
    nb = json.loads((ROOT / f"{doc}.ipynb").read_text(encoding="utf-8"))
    box = learning_path.goals_box(nb)
    assert box is not None and "You will be able to" in box


def test_later_chapters_need_earlier_ones_and_core_needs_only_core():
    entries = learning_path.chapters()
    track = {c.doc: c.track for c in entries}
    for c in entries[1:]:
        assert c.needs, f"chapter {c.number} names no chapter it builds on"
    for c in entries:
        if c.track == "core":
            assert all(track.get(n, "core") == "core" for n in c.needs), c
    assert sum(c.track == "core" for c in entries) >= 9


def test_reading_time_follows_the_length():
    entries = learning_path.chapters()
    assert all(c.minutes % 5 == 0 and 5 <= c.minutes <= 180 for c in entries)
    longest = max(entries, key=lambda c: c.minutes)
    nb = json.loads((ROOT / f"{longest.doc}.ipynb").read_text(encoding="utf-8"))
    assert learning_path.reading_minutes(nb) == longest.minutes


@pytest.mark.parametrize("doc", DOCS)
def test_each_chapter_ends_its_summary_with_a_checked_checkpoint(doc):
    number = DOCS.index(doc) + 1
    nb = json.loads((ROOT / f"{doc}.ipynb").read_text(encoding="utf-8"))
    text = ["".join(c["source"]) for c in nb["cells"]]
    summary = next(i for i, t in enumerate(text) if t.startswith("## Summary"))
    checkpoints = [ex for ex in REGISTRY.values()
                   if ex.chapter == number and ex.id.startswith("checkpoint-")]
    assert checkpoints, f"chapter {number} has no checkpoint exercise"
    for ex in checkpoints:
        where = next(i for i, t in enumerate(text) if f":label: {ex.id}" in t)
        assert where > summary
        assert any(f'check("{ex.id}"' in t for t in text[where:]), ex.id


@pytest.mark.parametrize("page", ["book/intro.md", "book/how_to_use.md"])
def test_the_landing_page_and_how_to_use_show_the_chapter_map(page):
    assert "```{chapter-map}" in (ROOT / page).read_text(encoding="utf-8")


def test_the_chapter_map_links_every_chapter_and_its_needs():
    entries = learning_path.chapters()
    table = learning_path.table_markdown(entries, "book/intro")
    for c in entries:
        assert f"<../{c.doc}>`" in table
        assert f"{c.minutes} min" in table
    assert table.count("\n* - ") == len(entries) + 1
    assert re.search(r"\{doc\}`1 <\.\./notebooks/01_", table)
