// The book's search ranking (html_search_scorer in _config.yml; Sphinx puts this file
// into language_data.js). Sphinx's own weights, plus: a hit on a chapter's own title
// counts most, and the back matter (errata, bibliography, index), which mentions every
// topic of the book, ranks below the chapters that teach it.
var Scorer = {
  score: function (result) {
    var docname = result[0], title = result[1], anchor = result[2], score = result[4];
    if (/^(book\/(errata|bibliography)|genindex)$/.test(docname)) score -= 20;
    else if (/^notebooks\//.test(docname) && !anchor) score += 2;
    return score;
  },
  objNameMatch: 11,
  objPartialMatch: 6,
  objPrio: { 0: 15, 1: 5, 2: -5 },
  objPrioDefault: 0,
  title: 15,
  partialTitle: 7,
  term: 5,
  partialTerm: 2,
};
