// The dashboard's entry module: public routes only, no token unless typed on the Data status view.
// Module scripts run once the page is parsed, so each view module wires its own controls.
import { problemText } from './api.js';
import { showCompare } from './compare.js';
import { labelCountryList, loadCountryList, showCountry } from './country.js';
import { applyLanguage, loadCountryNames, switchLanguage } from './language.js';
import { showMap } from './map.js';
import { showOverview } from './overview.js';
import { $, say } from './page.js';
import { showStatus } from './status.js';

const VIEWS = ['overview', 'country', 'compare', 'map', 'status'];

/** The view the URL's fragment names (`#country/France`), shown and loaded. */
async function route() {
  const [view, argument, ...more] = (location.hash.slice(1) || 'overview').split('/');
  const current = VIEWS.includes(view) ? view : 'overview';
  for (const section of document.querySelectorAll('main > section'))
    section.hidden = section.id !== current;
  for (const link of document.querySelectorAll('nav a')) {
    if (link.dataset.view === current) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  if (current === 'overview') return showOverview();
  if (current === 'status') return showStatus();
  if (current === 'map') return showMap(argument ? [argument, ...more] : []);
  try {
    await loadCountryList();
  } catch (error) {
    say(`${current}-message`, problemText(error));
    return;
  }
  if (current === 'country')
    return showCountry(argument ? decodeURIComponent(argument) : $('country-input').value);
  if (current === 'compare' && argument) return showCompare(argument);
}

$('lang').addEventListener('click', () => {
  switchLanguage();
  labelCountryList();
  void route();
});
window.addEventListener('hashchange', () => void route());
applyLanguage();
void loadCountryNames()
  .then(route)
  .then(() => document.body.setAttribute('data-ready', 'true'));
