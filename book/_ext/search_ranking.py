"""Sphinx extension: the chapter that teaches a term is found first by the book's search.

Why the glossary used to rank first. Sphinx's search (``searchtools.js``) scores a query
that matches an *index entry* at ``100 * len(query) / len(entry)``: 100 for the whole
entry. A glossary term is such an entry (Sphinx's ``glossary`` directive adds a "main"
index entry for every term), while the chapter that teaches the term scores only as full
text: 15 for a word of one of its titles, 5 for a word of its text. So the glossary came
first for every term, and the chapters after it in alphabetical order of their titles
("10. ..." before "8. ...").

What this extension does, without taking anything from the glossary:

* Every glossary entry ends with "Taught in {doc}`chapter N <...>`". The first chapter
  named there gets the same index entry as the glossary term, in the search index only
  (the general index and the pages are unchanged). The search scorer
  (``search_scorer.js``) adds 2 to a chapter, so the teaching chapter ranks just above
  the glossary, which keeps its own score.
* A term with several names ("Recall, TPR, sensitivity", "Matthews correlation
  coefficient (MCC)") is indexed under each name too, for the glossary and for its
  chapter: Sphinx matches an entry only when the query is at least half of it, so "MCC"
  did not find the term.
* Words of one or two letters ("KS", "PR") are indexed as written. Sphinx's Python
  stemmer turns "ks" into "k", but the stemmer in the browser leaves words shorter than
  three letters alone and looks for "ks": a search for KS found nothing.
* The index entries of every page are written on every build. Sphinx 7.4 writes into
  ``searchindex.js`` only the entries of the pages it rewrote (sphinx-doc/sphinx issue
  12599): after ``make book`` had rebuilt one edited chapter, the glossary's terms were
  gone from the search. Just before the index is written, each page's entries are set
  from what Sphinx collected while reading it (its index domain), plus the entries above,
  split as Sphinx's own ``IndexBuilder.feed`` splits them.
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx import addnodes
from sphinx.search.en import SearchEnglish
from sphinx.util import docname_join
from sphinx.util.index_entries import split_index_msg

TAUGHT_IN = "Taught in"


class SearchEnglishShortWords(SearchEnglish):
    """English search with short words kept as the browser's stemmer keeps them."""

    def stem(self, word: str) -> str:
        # searchtools' PorterStemmer.stemWord: "if (w.length < 3) return w;"
        return word.lower() if len(word) < 3 else super().stem(word)


def teaching_chapter(definition: nodes.Node, glossary_doc: str) -> str | None:
    """The docname of the first {doc} link after "Taught in" in a glossary definition."""
    seen = False
    for node in definition.findall():
        if isinstance(node, nodes.Text) and TAUGHT_IN in node.astext():
            seen = True
        elif (seen and isinstance(node, addnodes.pending_xref)
              and node.get("reftype") == "doc"):
            return docname_join(glossary_doc, node["reftarget"])
    return None


def term_names(term: str) -> list[str]:
    """The other names of a glossary term: the parts between its commas, and a short
    abbreviation in brackets with the words before it.

    >>> term_names("Recall, TPR, sensitivity"), term_names("Partial AUC (pAUC)")
    (['Recall', 'TPR', 'sensitivity'], ['Partial AUC', 'pAUC'])
    >>> term_names("Lorenz curve (economics)"), term_names("Lift")
    ([], [])
    """
    names = []
    for part in re.split(r",\s*", term):
        abbreviated = re.fullmatch(r"(.+?)\s*\(([A-Za-z]{1,5})\)", part)
        names += list(abbreviated.groups()) if abbreviated else [part]
    return [name for name in dict.fromkeys(names) if name != term]


def glossary_entries(env) -> dict[str, list[tuple]]:
    """{docname: the search-only index entries of the page}: each glossary term's other
    names for the glossary, and all its names for the chapter that teaches it first."""
    glossary_docs = sorted({
        docname for (kind, _name), (docname, _id) in env.get_domain("std").objects.items()
        if kind == "term"
    })
    by_doc: dict[str, list[tuple]] = {}
    for glossary_doc in glossary_docs:
        doctree = env.get_doctree(glossary_doc)
        for glossary in doctree.findall(addnodes.glossary):
            for item in glossary.findall(nodes.definition_list_item):
                definition = next(iter(item.findall(nodes.definition)), None)
                chapter = None if definition is None else teaching_chapter(definition, glossary_doc)
                if chapter is None or chapter not in env.all_docs:
                    continue
                for term in item.findall(nodes.term):
                    for index in term.findall(addnodes.index):
                        for entry_type, value, target, _main, key in index["entries"]:
                            others = term_names(value)
                            by_doc.setdefault(glossary_doc, []).extend(
                                (entry_type, name, target, "main", key) for name in others)
                            # target "": the hit opens the chapter at its top
                            by_doc.setdefault(chapter, []).extend(
                                (entry_type, name, "", "main", key) for name in [value, *others])
    return by_doc


def search_entries(entries) -> list[tuple[str, str, str]]:
    """The (entry, anchor, main) triples Sphinx's ``IndexBuilder.feed`` makes of a page's
    index entries (the same splitting of "pair", "see", ... entries)."""
    found: set[tuple[str, str, str]] = set()
    for entry_type, value, target_id, main, _key in entries:
        try:
            result = split_index_msg(entry_type, value)
        except ValueError:
            continue
        target_id = target_id or ""
        if entry_type in {"see", "seealso"}:
            found.add((result[0], target_id, main))
        found |= {(x, target_id, main) for x in result}
    return sorted(found)


def collect(app, env):
    app.builder.search_only_entries = glossary_entries(env)


def set_index_entries(app):
    """Before the search index is written (html-collect-pages comes first): the index
    entries of every indexed page, rewritten in this build or not."""
    indexer = getattr(app.builder, "indexer", None)
    if indexer is None:
        return []  # a builder without a search index
    collected = app.env.get_domain("index").entries
    extra = getattr(app.builder, "search_only_entries", {})
    entries = {  # the pages in the index (those with a title), in one order every build
        docname: search_entries([*collected.get(docname, []), *extra.get(docname, [])])
        for docname in sorted(indexer._titles)
    }
    indexer._index_entries.clear()
    indexer._index_entries.update(entries)
    return []


def setup(app):
    app.add_search_language(SearchEnglishShortWords)
    app.connect("env-updated", collect)
    app.connect("html-collect-pages", set_index_entries)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
