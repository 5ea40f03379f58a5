// The tip beside a focusable thing (a map's country, a chart's marker): a title and lines, at the
// pointer on hover, under the thing on keyboard focus or a tap, hidden on leaving it or with
// Escape. A tap's tip stays until another tap elsewhere: touch screens have no hover.

/** Whether the latest pointer was a finger: the mouse events a tap then emulates are ignored. */
let touching = false;
document.addEventListener(
  'pointerdown',
  (event) => {
    touching = event.pointerType === 'touch';
  },
  true,
);

/**
 * Shows `tip` (an absolutely placed element) with `content` near (x, y), viewport coordinates;
 * `content.link` ({ href, text }), when given, is a link under the lines.
 */
export function showTip(tip, content, x, y) {
  tip.textContent = '';
  const title = document.createElement('strong');
  title.textContent = content.title;
  tip.append(title);
  for (const line of content.lines) tip.append(document.createElement('br'), line);
  tip.classList.toggle('with-link', Boolean(content.link));
  if (content.link) {
    const link = document.createElement('a');
    link.href = content.link.href;
    link.textContent = content.link.text;
    tip.append(document.createElement('br'), link);
  }
  tip.hidden = false;
  const box = tip.parentElement.getBoundingClientRect();
  const left = Math.min(Math.max(0, x - box.left + 12), box.width - tip.offsetWidth);
  // Style properties set from code, which the page's policy allows.
  tip.style.left = `${Math.max(0, left)}px`;
  tip.style.top = `${Math.max(0, y - box.top + 12)}px`;
}

/**
 * Tips for the things under `container` that `find` picks from an event's target, saying what
 * `contentOf(thing, how)` gives for each (nothing: no tip); the same tip on hover and on focus,
 * `how` 'tap' for a tap (the container's `click` is then not followed: the tip shows instead).
 */
export function wireTips(container, tip, find, contentOf) {
  const show = (thing, x, y, how) => {
    const content = thing && contentOf(thing, how);
    if (content) showTip(tip, content, x, y);
    else tip.hidden = true;
  };
  const hide = () => (tip.hidden = true);
  container.addEventListener('mousemove', (event) => {
    if (touching) return;
    const thing = find(event.target);
    if (thing) show(thing, event.clientX, event.clientY, 'hover');
    else hide();
  });
  container.addEventListener('mouseleave', () => {
    if (!touching) hide();
  });
  container.addEventListener('click', (event) => {
    if (!touching) return;
    const thing = find(event.target);
    if (!thing) return;
    event.preventDefault();
    show(thing, event.clientX, event.clientY, 'tap');
  });
  container.addEventListener('focusin', (event) => {
    if (touching) return;
    const thing = find(event.target);
    if (!thing) return;
    const box = thing.getBoundingClientRect();
    show(thing, box.left + box.width / 2, box.bottom, 'focus');
  });
  container.addEventListener('focusout', (event) => {
    if (!touching && !tip.contains(event.relatedTarget)) hide();
  });
  container.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') hide();
  });
  // A tap elsewhere than on the things or the tip hides a tap's tip.
  document.addEventListener('pointerdown', (event) => {
    if (event.pointerType !== 'touch' || tip.hidden) return;
    if (!tip.contains(event.target) && !find(event.target)) hide();
  });
}
