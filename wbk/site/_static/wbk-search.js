// The search page's results: the sections of the chapters that say every word and number of
// the search, each with the lines where it says them. Sphinx's own search lists whole pages by
// their titles and knows no numbers ("9.4", "1913"); this one reads wbk-search-index.js, which
// wbk.publish writes from the built pages (each section's words, and how often each rule and hex
// number appears in it), and stands in for Sphinx's list. A script file, not a fetch, so that
// the site works from file:// too.
(() => {
  const here = document.currentScript.src;
  if (!document.location.pathname.endsWith("search.html")) return;
  const query = new URLSearchParams(document.location.search).get("q") || "";
  // words too common to narrow a search down
  const COMMON = new Set(["a", "an", "and", "at", "by", "for", "in", "into", "is", "it", "of",
    "on", "or", "the", "to", "what", "with"]);
  const terms = [...new Set((query.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}.'’-]*/gu) || [])
    .map((term) => term.replace(/[.'’-]+$/, ""))
    .filter((term) => term && !COMMON.has(term)))];
  if (!terms.length) return;

  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const isNumber = (term) => /^\d+(?:\.\d+)*$/.test(term);
  // a number stands alone ("9.4" is not in "9.45" or "19.4"); a word may begin a longer one
  // ("retreat" finds "retreats")
  const pattern = (term) => isNumber(term)
    ? new RegExp(`(?<![\\p{L}\\p{N}.])${escape(term)}(?![\\p{L}\\p{N}]|\\.\\d)`, "giu")
    : new RegExp(`(?<![\\p{L}\\p{N}])${escape(term)}`, "giu");
  const count = (text, term) => (text.match(pattern(term)) || []).length;

  function found(index) {
    const numbers = new Map(); // term -> place -> count, from the number index
    for (const term of terms.filter((t) => index.tokens[t])) {
      numbers.set(term, new Map(index.tokens[term]));
    }
    const results = [];
    index.places.forEach(([page, id, title, chapter, aside, text], place) => {
      let score = 0;
      for (const term of terms) {
        const n = numbers.has(term)
          ? numbers.get(term).get(place) || 0
          : count(text, term) + 3 * count(title, term);
        if (!n) return; // a section that misses one of the terms is not a result
        score += n;
      }
      results.push({ page, id, title, chapter, aside, text, score });
    });
    // where a rule is taught comes before the panels and the quiz that repeat it
    return results.sort((a, b) => a.aside - b.aside || b.score - a.score);
  }

  function excerpt(text) {
    // the first place that says a term, with the words around it, the terms marked
    const any = new RegExp(terms.map((t) => pattern(t).source).join("|"), "iu");
    const at = Math.max(0, text.search(any)); // a title's word only: the section's opening
    const start = Math.max(0, text.lastIndexOf(" ", Math.max(0, at - 80)) + 1);
    const endSpace = text.indexOf(" ", Math.min(text.length, at + 160));
    const end = endSpace < 0 ? text.length : endSpace;
    const words = (start > 0 ? "… " : "") + text.slice(start, end) + (end < text.length ? " …" : "");
    const paragraph = document.createElement("p");
    paragraph.className = "wbk-excerpt";
    const every = new RegExp(terms.map((t) => pattern(t).source).join("|"), "giu");
    let last = 0;
    for (const match of words.matchAll(every)) {
      paragraph.append(words.slice(last, match.index));
      const mark = document.createElement("mark");
      mark.textContent = match[0];
      paragraph.append(mark);
      last = match.index + match[0].length;
    }
    paragraph.append(words.slice(last));
    return paragraph;
  }

  function show() {
    const root = here.replace(/_static\/wbk-search\.js.*$/, "");
    const results = found(window.WBK_SEARCH);
    const section = document.createElement("section");
    section.id = "wbk-search-results";
    const heading = document.createElement("h2");
    heading.textContent = results.length
      ? `${results.length} section${results.length === 1 ? "" : "s"} of the workbook say ` +
        terms.map((t) => `“${t}”`).join(" and ")
      : `No section of the workbook says ${terms.map((t) => `“${t}”`).join(" and ")}`;
    section.append(heading);
    const list = document.createElement("ul");
    for (const { page, id, title, chapter, text, score } of results) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = `${root}${page}#${id}`;
      link.textContent = chapter && chapter !== title ? `${chapter}: ${title}` : title;
      item.append(link, ` (${score}×)`, excerpt(text));
      list.append(item);
    }
    section.append(list);
    // Sphinx's list of pages by title stands aside: this list is the search's answer
    const sphinx = document.getElementById("search-results");
    if (sphinx) {
      sphinx.hidden = true;
      sphinx.before(section);
    } else {
      document.querySelector("main, body").prepend(section);
    }
  }

  const script = document.createElement("script");
  script.src = here.replace(/wbk-search\.js.*$/, "wbk-search-index.js");
  script.onload = () =>
    document.readyState === "loading"
      ? document.addEventListener("DOMContentLoaded", show)
      : show();
  document.head.append(script);
})();
