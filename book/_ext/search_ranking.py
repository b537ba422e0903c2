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
  named there gets the same index entry as the glossary term, for the search only (the
  entry is added to the chapter's resolved doctree, which Sphinx's search indexer reads;
  the general index, built while reading, is unchanged and no page shows anything new).
  The search scorer (``search_scorer.js``) adds 2 to a chapter, so the teaching chapter
  ranks just above the glossary, which keeps its own score.
* Words of one or two letters ("KS", "PR") are indexed as written. Sphinx's Python
  stemmer turns "ks" into "k", but the stemmer in the browser leaves words shorter than
  three letters alone and looks for "ks": a search for KS found nothing.
"""

from __future__ import annotations

from docutils import nodes
from sphinx import addnodes
from sphinx.search.en import SearchEnglish
from sphinx.util import docname_join

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


def glossary_entries_by_chapter(env) -> dict[str, list[tuple]]:
    """{chapter docname: the index entries of the glossary terms it teaches first}."""
    glossary_docs = sorted({
        docname for (kind, _name), (docname, _id) in env.get_domain("std").objects.items()
        if kind == "term"
    })
    by_chapter: dict[str, list[tuple]] = {}
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
                        for entry_type, value, _target, _main, key in index["entries"]:
                            # target "": the hit opens the chapter at its top
                            by_chapter.setdefault(chapter, []).append(
                                (entry_type, value, "", "main", key))
    return by_chapter


def collect(app, env):
    """Keep the entries on the environment; a chapter whose entries changed since the
    last build is written again, so that an incremental build reindexes it."""
    before = getattr(env, "search_terms_by_chapter", {})
    after = glossary_entries_by_chapter(env)
    env.search_terms_by_chapter = after
    return sorted(d for d in set(before) | set(after) if before.get(d) != after.get(d))


def add_entries(app, doctree, docname):
    if getattr(app.builder, "indexer", None) is None:
        return  # only the HTML builders have a search index
    entries = getattr(app.env, "search_terms_by_chapter", {}).get(docname)
    if entries:
        doctree.append(addnodes.index(entries=entries))


def setup(app):
    app.add_search_language(SearchEnglishShortWords)
    app.connect("env-updated", collect)
    app.connect("doctree-resolved", add_entries)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
