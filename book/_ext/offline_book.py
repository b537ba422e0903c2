"""Sphinx extension: keep the built book free of network references.

Jupyter Book always loads sphinx-thebe, which writes the address of a CDN copy of thebe
into every page although this book has no live-code buttons; this extension drops those
two scripts from the pages. After the build it places MathJax's licence next to the copy
of MathJax that sphinx-mathjax-offline serves from ``_static/mathjax``, and removes
MathJax's ``latest.js``, a loader whose only job is to fetch MathJax from CDNs.
"""

from __future__ import annotations

import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
LICENSE = HERE.parent / "licenses" / "MathJax-LICENSE.txt"


def _is_thebe(script) -> bool:
    body = str(getattr(script, "attributes", {}).get("body", ""))
    return "THEBE_JS_URL" in body or str(script).endswith("sphinx-thebe.js")


def drop_thebe(app, pagename, templatename, context, doctree):
    scripts = context.get("script_files")
    if scripts:
        context["script_files"] = [s for s in scripts if not _is_thebe(s)]


def finish_mathjax(app, exc):
    if exc is not None:
        return
    mathjax = Path(app.outdir) / "_static" / "mathjax"
    if mathjax.is_dir():
        shutil.copyfile(LICENSE, mathjax / "LICENSE.txt")
        (mathjax / "latest.js").unlink(missing_ok=True)


def setup(app):
    app.connect("html-page-context", drop_thebe)
    # After sphinx-mathjax-offline (priority 500) has copied MathJax.
    app.connect("build-finished", finish_mathjax, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
