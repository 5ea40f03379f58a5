// Shortcuts to the page's elements by id.
export const $ = (id) => document.getElementById(id);
/** A view's message line: the text, or nothing. */
export const say = (id, text) => ($(id).textContent = text || '');
