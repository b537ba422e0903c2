"""Sphinx extension: keep the built book free of network references.

Jupyter Book always loads sphinx-thebe, which writes the address of a CDN copy of thebe
into every page although this book has no live-code buttons; this extension drops its
scripts and stylesheet from the pages and its files from ``_static``. After the build it
trims the copy of MathJax that sphinx-mathjax-offline serves from ``_static/mathjax`` to
what the pages load (``MATHJAX_KEEP``: the 24 MB distribution becomes about 2 MB) and
places MathJax's licence next to it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
LICENSE = HERE.parent / "licenses" / "MathJax-LICENSE.txt"


def drop_thebe_config(app, doctree, docname):
    """Remove the inline thebe configuration sphinx-thebe puts at the end of every page."""
    from docutils import nodes

    for node in list(doctree.findall(nodes.raw)):
        if "x-thebe-config" in node.astext():
            node.parent.remove(node)


def _name(asset) -> str:
    return str(getattr(asset, "filename", asset) or "").split("?")[0]


def _is_thebe(script) -> bool:
    body = str(getattr(script, "attributes", {}).get("body", ""))
    return "THEBE_JS_URL" in body or _name(script).endswith("sphinx-thebe.js")


def drop_thebe(app, pagename, templatename, context, doctree):
    scripts = context.get("script_files")
    if scripts:
        context["script_files"] = [s for s in scripts if not _is_thebe(s)]
    styles = context.get("css_files")
    if styles:
        context["css_files"] = [s for s in styles if not _name(s).endswith("sphinx-thebe.css")]


# What the pages load of MathJax: the combined component tex-chtml.js (TeX input, CHTML
# output, menu), the CHTML fonts it asks for, and the TeX extensions its autoload may fetch
# when a page uses a macro outside the component (\\cancel, \\bbox, ...). The rest of the
# distribution (other combined components, SVG output, speech rule engine) is never loaded.
MATHJAX_KEEP = ("tex-chtml.js", "output/chtml/fonts/woff-v2/", "input/tex/extensions/")


def _keep(relative: str) -> bool:
    return any(relative == k or relative.startswith(k) for k in MATHJAX_KEEP)


def finish_mathjax(app, exc):
    if exc is not None:
        return
    mathjax = Path(app.outdir) / "_static" / "mathjax"
    if mathjax.is_dir():
        for path in sorted(mathjax.rglob("*"), reverse=True):
            relative = path.relative_to(mathjax).as_posix()
            if path.is_file() and not _keep(relative):
                path.unlink()
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
        shutil.copyfile(LICENSE, mathjax / "LICENSE.txt")
    static = Path(app.outdir) / "_static"
    for name in ("sphinx-thebe.js", "sphinx-thebe.css"):
        (static / name).unlink(missing_ok=True)
    # Source maps of the theme's bundles: only a browser's developer tools ask for them.
    for source_map in static.rglob("*.js.map"):
        source_map.unlink()


def share_html_handlers_with_singlehtml(app):
    """Let the one-page build (``make pdf``) visit every node the HTML build visits.

    Sphinx looks a builder's node handlers up by the builder's name before its format,
    so once any extension registers a handler for ``singlehtml``, the handlers other
    extensions registered for ``html`` only (myst-nb's hidden code cells,
    sphinx-jupyterbook-latex's hidden inputs, ...) are not used by the one-page build,
    which then stops at the first such node. Copy the missing ones over.
    """
    handlers = app.registry.translation_handlers
    single = handlers.get("singlehtml")
    if single is None:
        return
    for node, visitors in handlers.get("html", {}).items():
        single.setdefault(node, visitors)


def setup(app):
    app.connect("builder-inited", share_html_handlers_with_singlehtml)
    app.connect("html-page-context", drop_thebe)
    # After sphinx-thebe's own doctree-resolved handler (priority 500).
    app.connect("doctree-resolved", drop_thebe_config, priority=900)
    # After sphinx-mathjax-offline (priority 500) has copied MathJax.
    app.connect("build-finished", finish_mathjax, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
