"""Sphinx extension: the book serves the threshold explorer's JavaScript once.

A notebook output of :func:`course_lib.interactive.threshold_explorer` carries the
explorer's module and style sheet inline (marked ``data-te-module``) so that it works in
JupyterLab, where the book's static files are absent. The book loads the same module
once for every page from ``_static`` (``html_js_files`` in ``_config.yml``), so this
extension drops the inline copies from the pages: each explorer then adds only its data.
"""

from __future__ import annotations

import re

from docutils import nodes

INLINE_MODULE = re.compile(r"<(style|script) data-te-module>.*?</\1>\n?", re.S)


def drop_inline_module(app, doctree, docname):
    for node in list(doctree.findall(nodes.raw)):
        text = node.astext()
        if "data-te-module" in text and "html" in node.get("format", "").split():
            stripped = INLINE_MODULE.sub("", text)
            new = nodes.raw(stripped, stripped, format=node["format"])
            new["classes"] = list(node.get("classes", []))
            node.replace_self(new)


def setup(app):
    app.connect("doctree-resolved", drop_inline_module)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
