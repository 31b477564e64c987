// Click (or Enter on) a picture to see it full size, over the page; a click, Escape or the
// close button puts it away.
document.addEventListener("DOMContentLoaded", () => {
  const pictures = document.querySelectorAll("main .cell_output img, main .wbk-panel-snapshot img");
  for (const picture of pictures) {
    picture.classList.add("wbk-zoomable");
    picture.tabIndex = 0;
    picture.title = "click to see it full size";
    // a picture Sphinx scaled is a link to its file: open it here instead, over the page
    picture.addEventListener("click", (event) => {
      event.preventDefault();
      open(picture);
    });
    picture.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        open(picture);
      }
    });
  }

  function open(picture) {
    const overlay = document.createElement("div");
    overlay.className = "wbk-zoom";
    overlay.setAttribute("role", "dialog");
    overlay.setAttribute("aria-modal", "true");
    overlay.setAttribute("aria-label", `full size: ${picture.alt}`);
    const close = document.createElement("button");
    close.type = "button";
    close.textContent = "Close";
    const big = document.createElement("img");
    big.src = picture.src;
    big.alt = picture.alt;
    // full size is the picture's own size where it was drawn larger than the page shows it;
    // one drawn no larger (a snapshot's small picture) is shown twice as large, within the
    // window, so that its labels can be read
    const shown = picture.getBoundingClientRect().width;
    const fit = () => {
      if (big.naturalWidth < 1.5 * shown) {
        const room = document.documentElement.clientWidth - 32;
        big.style.width = `${Math.round(Math.min(2 * shown, Math.max(room, shown)))}px`;
      }
    };
    if (big.complete) fit();
    else big.addEventListener("load", fit);
    overlay.append(close, big);
    const done = () => {
      overlay.remove();
      document.removeEventListener("keydown", onKey);
      picture.focus();
    };
    const onKey = (event) => event.key === "Escape" && done();
    overlay.addEventListener("click", done);
    document.addEventListener("keydown", onKey);
    document.body.append(overlay);
    close.focus();
  }
});
