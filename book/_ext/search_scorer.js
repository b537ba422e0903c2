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
  _titleWords: function (text) {
    var stemmer = new Stemmer();
    return splitQuery(text.toLowerCase()).map(function (w) { return stemmer.stemWord(w); });
  },
  // The words of the query as searchtools looks them up (stemmed, without stopwords).
  _queryWords: function () {
    var query = new URLSearchParams(window.location.search).get("q") || "";
    return Scorer._titleWords(query).filter(function (w) {
      return stopwords.indexOf(w) === -1 && !/^\d+$/.test(w);
    });
  },
  score: function (result) {
    var docname = result[0], title = result[1], anchor = result[2], score = result[4];
    if (/^(book\/(errata|bibliography)|genindex)$/.test(docname)) return score - 20;
    if (anchor) return score;
    if (/^notebooks\//.test(docname)) score += 2;
    var query = Scorer._queryWords();
    var words = Scorer._titleWords(title);
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
