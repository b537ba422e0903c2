// The book's search ranking (html_search_scorer in _config.yml; Sphinx puts this file
// into language_data.js). Sphinx's own weights, plus, for a result that opens a page at
// its top:
// * a chapter gets 2 more than another page, so the chapter that teaches a glossary term
//   (it carries the term's index entry too, book/_ext/search_ranking.py) ranks just above
//   the glossary, which keeps Sphinx's score;
// * a page whose own title holds every word of the query gets 3 more: Sphinx scores a
//   word of any section title alike, so "KS" found the chapters with a section on KS
//   before the chapter called "Gain, lift, KS and the gains table";
// * the back matter (errata, bibliography, index), which mentions every topic of the
//   book, ranks below the chapters that teach it.
var Scorer = {
  // Words as searchtools looks them up: lower case, stemmed; for the query, without
  // stopwords and numbers (searchtools' _parseQuery).
  _words: function (text, isQuery) {
    var stemmer = new Stemmer();
    return splitQuery(text.toLowerCase()).filter(function (w) {
      return !isQuery || (stopwords.indexOf(w) === -1 && !/^\d+$/.test(w));
    }).map(function (w) { return stemmer.stemWord(w); });
  },
  score: function (result) {
    var docname = result[0], title = result[1], anchor = result[2], score = result[4];
    if (/^(book\/(errata|bibliography)|genindex)$/.test(docname)) return score - 20;
    if (anchor) return score;
    if (/^notebooks\//.test(docname)) score += 2;
    var query = Scorer._words(new URLSearchParams(window.location.search).get("q") || "", true);
    var words = Scorer._words(title, false);
    if (query.length && query.every(function (w) { return words.indexOf(w) !== -1; })) score += 3;
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
