// The tip beside a focusable thing (a map's country, a chart's marker): a title and lines, at the
// pointer on hover, under the thing on keyboard focus, hidden on leaving it or with Escape.

/** Shows `tip` (an absolutely placed element) with `content` near (x, y), viewport coordinates. */
export function showTip(tip, content, x, y) {
  tip.textContent = '';
  const title = document.createElement('strong');
  title.textContent = content.title;
  tip.append(title);
  for (const line of content.lines) tip.append(document.createElement('br'), line);
  tip.hidden = false;
  const box = tip.parentElement.getBoundingClientRect();
  const left = Math.min(Math.max(0, x - box.left + 12), box.width - tip.offsetWidth);
  // Style properties set from code, which the page's policy allows.
  tip.style.left = `${Math.max(0, left)}px`;
  tip.style.top = `${Math.max(0, y - box.top + 12)}px`;
}

/**
 * Tips for the things under `container` that `find` picks from an event's target, saying what
 * `contentOf` gives for each (nothing: no tip); the same tip on hover and on focus.
 */
export function wireTips(container, tip, find, contentOf) {
  const show = (thing, x, y) => {
    const content = thing && contentOf(thing);
    if (content) showTip(tip, content, x, y);
    else tip.hidden = true;
  };
  const hide = () => (tip.hidden = true);
  container.addEventListener('mousemove', (event) => {
    const thing = find(event.target);
    if (thing) show(thing, event.clientX, event.clientY);
    else hide();
  });
  container.addEventListener('mouseleave', hide);
  container.addEventListener('focusin', (event) => {
    const thing = find(event.target);
    if (!thing) return;
    const box = thing.getBoundingClientRect();
    show(thing, box.left + box.width / 2, box.bottom);
  });
  container.addEventListener('focusout', hide);
  container.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') hide();
  });
}
