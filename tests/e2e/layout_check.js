// Run in the page by tests/e2e/test_layout.py: every visible element whose content
// sticks out of its box or is cut short with an ellipsis, or a word broken across two lines. Returns readable lines.
() => {
  const problems = [];
  const name = (el) => {
    const id = el.id ? `#${el.id}` : "";
    const cls = typeof el.className === "string" && el.className ? "." + el.className.trim().split(/\s+/).slice(0, 3).join(".") : "";
    const text = (el.textContent || "").trim().replace(/\s+/g, " ").slice(0, 40);
    return `<${el.tagName.toLowerCase()}${id}${cls}> "${text}"`;
  };
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return false;
    const cs = getComputedStyle(el);
    return cs.visibility !== "hidden" && cs.display !== "none";
  };
  const scrolls = (cs) => /(auto|scroll)/.test(cs.overflowX + cs.overflowY);
  if (document.documentElement.scrollWidth > window.innerWidth + 1) {
    problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${window.innerWidth}`);
  }
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest("svg, .sr-only, script, style, option, select, .toasts") || !shown(el)) continue;
    const cs = getComputedStyle(el);
    // 1. content wider than its box, in a box that neither scrolls nor clips on purpose
    if (cs.overflowX === "visible" && cs.display !== "inline" && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`content wider than its box (${el.scrollWidth} > ${el.clientWidth}): ${name(el)}`);
    }
    // 2. the element pokes out of the nearest ancestor that clips (not one that scrolls)
    const r = el.getBoundingClientRect();
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const ucs = getComputedStyle(up);
      if (ucs.overflowX === "visible" && ucs.overflowY === "visible") continue;
      if (scrolls(ucs)) break;
      const u = up.getBoundingClientRect();
      if (r.right > u.right + 1 || r.left < u.left - 1) problems.push(`cut off by ${name(up)}: ${name(el)}`);
      break;
    }
    // 3. a text cut short with "…": what the page says must be there to read
    if (cs.textOverflow === "ellipsis" && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`cut short with an ellipsis (${el.scrollWidth} > ${el.clientWidth}): ${name(el)}`);
    }
    // 4. a word broken across lines (a label that would rather not fit than wrap)
    if (el.closest("input, textarea, .chat-list, .log, #share, .skip-link") || cs.textOverflow === "ellipsis") continue;
    for (const node of el.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE) continue;
      const text = node.textContent || "";
      // a word may break after a hyphen or a slash, never inside
      const re = /[^\s\-\u2010\u2013\u2014/]{2,}/g;
      let m;
      while ((m = re.exec(text))) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter((q) => q.width > 0).map((q) => Math.round(q.top)));
        if (tops.size > 1) problems.push(`word "${m[0]}" broken across lines in ${name(el)}`);
      }
    }
  }
  return [...new Set(problems)];
}
