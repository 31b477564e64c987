// The search page's results for rule and hex numbers ("9.4", "1913"), which Sphinx's own index
// drops: looked up in wbk-numbers.js, written by wbk.publish from the built pages. A script
// file, not a fetch, so that the site works from file:// too.
(() => {
  const here = document.currentScript.src;
  if (!document.location.pathname.endsWith("search.html")) return;
  const query = new URLSearchParams(document.location.search).get("q") || "";
  const numbers = query.match(/\d+(?:\.\d+)*/g);
  if (!numbers) return;

  function show() {
    const index = window.WBK_NUMBERS;
    const root = here.replace(/_static\/wbk-search\.js.*$/, "");
    const found = [];
    const seen = new Set();
    for (const number of numbers) {
      for (const [place, count] of index.tokens[number] || []) {
        if (seen.has(place)) continue;
        seen.add(place);
        found.push([index.places[place], count, number]);
      }
    }
    const section = document.createElement("section");
    section.id = "wbk-number-results";
    const heading = document.createElement("h2");
    heading.textContent = found.length
      ? `Rule and hex numbers: ${found.length} section${found.length === 1 ? "" : "s"}`
      : `No section mentions ${numbers.join(" or ")}`;
    section.append(heading);
    const list = document.createElement("ul");
    for (const [[page, id, title, chapter], count, number] of found) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = `${root}${page}#${id}`;
      link.textContent = chapter && chapter !== title ? `${chapter}: ${title}` : title;
      item.append(link, ` (${number}, ${count}×)`);
      list.append(item);
    }
    section.append(list);
    const results = document.getElementById("search-results");
    if (results) results.before(section);
    else document.querySelector("main, body").prepend(section);
    if (!found.length || !results) return;
    // Sphinx's word search knows no numbers: its "did not match" is not the whole answer
    new MutationObserver(() => {
      for (const said of results.querySelectorAll("p")) {
        if (said.textContent.startsWith("Your search did not match")) {
          said.textContent = "No page matches the words of the search; the sections above " +
            "mention its numbers.";
        }
      }
    }).observe(results, { childList: true, subtree: true, characterData: true });
  }

  const script = document.createElement("script");
  script.src = here.replace(/wbk-search\.js.*$/, "wbk-numbers.js");
  script.onload = () =>
    document.readyState === "loading"
      ? document.addEventListener("DOMContentLoaded", show)
      : show();
  document.head.append(script);
})();
