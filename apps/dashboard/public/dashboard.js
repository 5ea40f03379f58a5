'use strict';
// The dashboard's only script: public routes only, no token unless typed on the Data status view.
(function () {
  const TEXT = {
    fr: {
      title: 'COVID-19 et MPOX',
      skip: 'Aller au contenu',
      views: 'Vues',
      overview: "Vue d'ensemble",
      country: 'Pays',
      compare: 'Comparer',
      status: 'État des données',
      cases: 'Cas',
      deaths: 'Décès',
      latest: 'Dernières données',
      date: 'Date',
      countryCol: 'Pays',
      worldChart: 'Monde : nouveaux cas et décès COVID-19 par semaine',
      topCountries: 'Pays les plus touchés (COVID-19)',
      countryPrompt: 'Pays (nom français ou anglais, ou code)',
      range: 'Période',
      last90: '90 derniers jours',
      lastYear: 'Dernière année',
      everything: 'Tout',
      show: 'Afficher',
      mpoxSame: 'MPOX dans ce pays',
      country1: 'Pays 1',
      country2: 'Pays 2',
      country3: 'Pays 3',
      country4: 'Pays 4',
      mode: 'Valeurs',
      absolute: 'Totaux cumulés',
      perDay: 'Nouveaux cas par jour (moyenne sur 7 jours)',
      statusHelp:
        "Réservé aux personnes qui ont un jeton : il reste dans cet onglet et n'est envoyé qu'à /api/sources.",
      token: 'Jeton',
      forget: 'Oublier le jeton',
      footer:
        "Données publiques de l'API ; graphiques : sommes hebdomadaires (semaines du lundi au dimanche) et moyenne sur 7 jours.",
      switchTo: 'English',
      weeklyCases: 'Nouveaux cas par semaine',
      weeklyDeaths: 'Nouveaux décès par semaine',
      avg7: 'Moyenne sur 7 jours',
      totalCases: 'Total des cas',
      totalDeaths: 'Total des décès',
      ago: (n) => (n === 0 ? "aujourd'hui" : n === 1 ? 'il y a 1 jour' : `il y a ${n} jours`),
      notFound: 'Pays introuvable : vérifiez le nom ou le code.',
      tooMany: (s) => `Trop de requêtes : réessayez dans ${s} s.`,
      tooManyNoWait: 'Trop de requêtes : réessayez dans un moment.',
      unavailable: 'Service momentanément indisponible (503) : réessayez dans un moment.',
      failed: (s) => `Erreur du service (${s}).`,
      offline: 'Le service ne répond pas.',
      noMpox: 'Pas de données MPOX pour ce pays.',
      pickOne: 'Choisissez au moins un pays.',
      syncOff: "Synchronisation non configurée : cette instance n'a pas de sources.",
      tokenRefused: 'Jeton refusé.',
      scopeMissing:
        "Ce jeton est valide mais n'a pas le droit sources:read : demandez-le à l'administrateur (tokens scope).",
      noSources: 'Aucune source.',
      syncEvery: (interval, next) => `Synchronisation toutes les ${interval}, prochaine : ${next}.`,
      sourceColumns: [
        'Source',
        'Dernière tentative',
        'Dernier succès',
        'Résultat',
        'Lignes',
        'Erreur',
      ],
      outcomes: { updated: 'mise à jour', unchanged: 'inchangée', failed: 'échec' },
      rowCounts: (i, u, n) => `${i} insérées, ${u} modifiées, ${n} inchangées`,
      none: '—',
    },
    en: {
      title: 'COVID-19 and MPOX',
      skip: 'Skip to content',
      views: 'Views',
      overview: 'World overview',
      country: 'Country',
      compare: 'Compare',
      status: 'Data status',
      cases: 'Cases',
      deaths: 'Deaths',
      latest: 'Latest data',
      date: 'Date',
      countryCol: 'Country',
      worldChart: 'World: COVID-19 new cases and deaths per week',
      topCountries: 'Most affected countries (COVID-19)',
      countryPrompt: 'Country (French or English name, or code)',
      range: 'Range',
      last90: 'Last 90 days',
      lastYear: 'Last year',
      everything: 'Everything',
      show: 'Show',
      mpoxSame: 'MPOX in this country',
      country1: 'Country 1',
      country2: 'Country 2',
      country3: 'Country 3',
      country4: 'Country 4',
      mode: 'Values',
      absolute: 'Cumulative totals',
      perDay: 'New cases per day (7-day average)',
      statusHelp:
        'For token holders only: the token stays in this tab and is sent to /api/sources only.',
      token: 'Token',
      forget: 'Forget the token',
      footer:
        "The API's public data; charts: weekly sums (weeks from Monday to Sunday) and 7-day average.",
      switchTo: 'Français',
      weeklyCases: 'New cases per week',
      weeklyDeaths: 'New deaths per week',
      avg7: '7-day average',
      totalCases: 'Total cases',
      totalDeaths: 'Total deaths',
      ago: (n) => (n === 0 ? 'today' : n === 1 ? '1 day ago' : `${n} days ago`),
      notFound: 'Country not found: check the name or code.',
      tooMany: (s) => `Too many requests: try again in ${s} s.`,
      tooManyNoWait: 'Too many requests: try again in a moment.',
      unavailable: 'Service temporarily unavailable (503): try again in a moment.',
      failed: (s) => `Service error (${s}).`,
      offline: 'The service does not answer.',
      noMpox: 'No MPOX data for this country.',
      pickOne: 'Choose at least one country.',
      syncOff: 'Sync not configured: this instance has no sources.',
      tokenRefused: 'Token refused.',
      scopeMissing:
        'This token is valid but lacks the sources:read scope: ask the administrator (tokens scope).',
      noSources: 'No source.',
      syncEvery: (interval, next) => `Sync every ${interval}, next: ${next}.`,
      sourceColumns: ['Source', 'Last attempt', 'Last success', 'Outcome', 'Rows', 'Error'],
      outcomes: { updated: 'updated', unchanged: 'unchanged', failed: 'failed' },
      rowCounts: (i, u, n) => `${i} inserted, ${u} updated, ${n} unchanged`,
      none: '—',
    },
  };
  const LANG_KEY = 'dashboard.lang';
  const TOKEN_KEY = 'dashboard.token';
  const monthNames = (locale, style) =>
    Array.from({ length: 12 }, (_, m) =>
      new Intl.DateTimeFormat(locale, { month: style, timeZone: 'UTC' }).format(
        Date.UTC(2021, m, 1),
      ),
    );
  const dayNames = (locale, style) =>
    Array.from({ length: 7 }, (_, d) =>
      new Intl.DateTimeFormat(locale, { weekday: style, timeZone: 'UTC' }).format(
        Date.UTC(2021, 0, 3 + d),
      ),
    );
  // uPlot's axis labels in the page's language.
  const MONTHS = {};
  for (const [key, locale] of [
    ['fr', 'fr-FR'],
    ['en', 'en-GB'],
  ]) {
    MONTHS[key] = {
      MMMM: monthNames(locale, 'long'),
      MMM: monthNames(locale, 'short'),
      WWWW: dayNames(locale, 'long'),
      WWW: dayNames(locale, 'short'),
    };
  }
  const COLORS = ['#0b5cad', '#c0392b', '#2e8b57', '#8e44ad'];

  const params = new URLSearchParams(location.search);
  let lang = params.get('lang') || localStorage.getItem(LANG_KEY) || 'fr';
  if (!TEXT[lang]) lang = 'fr';
  const t = (key) => TEXT[lang][key];
  let numbers = new Intl.NumberFormat(lang === 'fr' ? 'fr-FR' : 'en-GB');
  const $ = (id) => document.getElementById(id);
  const num = (value) => (Number.isFinite(value) ? numbers.format(Math.round(value)) : t('none'));
  const dayMs = 86400000;
  const toTime = (date) => Date.parse(`${date}T00:00:00Z`) / 1000;
  const formatDate = (date) =>
    typeof date === 'string' && date
      ? new Intl.DateTimeFormat(lang === 'fr' ? 'fr-FR' : 'en-GB', {
          dateStyle: 'medium',
          timeZone: 'UTC',
        }).format(new Date(`${date}T00:00:00Z`))
      : t('none');

  /** An API answer that is not 2xx, turned into the view's message. */
  class ApiProblem extends Error {
    constructor(status, retryAfter) {
      super(`HTTP ${status}`);
      this.status = status;
      this.retryAfter = retryAfter;
    }
  }

  async function api(path, headers) {
    let response;
    try {
      response = await fetch(path, {
        headers: Object.assign({ Accept: 'application/json' }, headers),
      });
    } catch {
      throw new ApiProblem(0, null);
    }
    if (!response.ok) throw new ApiProblem(response.status, response.headers.get('Retry-After'));
    return response.json();
  }

  function problemText(error) {
    if (!(error instanceof ApiProblem)) return t('offline');
    if (error.status === 404) return t('notFound');
    if (error.status === 429) {
      const wait = Number(error.retryAfter);
      return Number.isFinite(wait) && wait >= 0
        ? t('tooMany')(Math.ceil(wait))
        : t('tooManyNoWait');
    }
    if (error.status === 503) return t('unavailable');
    if (error.status === 0) return t('offline');
    return t('failed')(error.status);
  }

  const say = (id, text) => ($(id).textContent = text || '');

  // ---------- charts (uPlot) ----------
  const charts = new Map();
  function chartWidth(element) {
    return Math.max(280, Math.min(element.parentElement.clientWidth, 1100));
  }
  function drawChart(id, title, times, series) {
    const element = $(id);
    if (charts.has(id)) charts.get(id).destroy();
    element.textContent = '';
    const axes = [{}, { size: 70, values: (u, ticks) => ticks.map((v) => compact(v)) }];
    const scales = { x: { time: true } };
    const hasRight = series.some((s) => s.scale === 'avg');
    if (hasRight) {
      axes.push({
        scale: 'avg',
        side: 1,
        size: 70,
        grid: { show: false },
        values: (u, ticks) => ticks.map((v) => compact(v)),
      });
      scales.avg = {};
    }
    const options = {
      title,
      width: chartWidth(element),
      height: window.innerWidth < 480 ? 220 : 280,
      scales,
      axes,
      legend: { live: false },
      fmtDate: (template) => uPlot.fmtDate(template, MONTHS[lang]),
      series: [
        {
          value: (u, v) =>
            v == null ? t('none') : formatDate(new Date(v * 1000).toISOString().slice(0, 10)),
        },
      ].concat(
        series.map((s, i) => ({
          label: s.label,
          scale: s.scale || 'y',
          stroke: s.color || COLORS[i % COLORS.length],
          fill: s.bars ? `${s.color || COLORS[i % COLORS.length]}55` : undefined,
          width: s.bars ? 0 : 2,
          paths: s.bars ? uPlot.paths.bars({ size: [0.8, 40] }) : undefined,
          points: { show: false },
          value: (u, v) => num(v),
        })),
      ),
    };
    const chart = new uPlot(options, [times].concat(series.map((s) => s.values)), element);
    charts.set(id, chart);
  }
  function clearChart(id) {
    if (charts.has(id)) charts.get(id).destroy();
    charts.delete(id);
    $(id).textContent = '';
  }
  let compactFormat = new Intl.NumberFormat(lang === 'fr' ? 'fr-FR' : 'en-GB', {
    notation: 'compact',
  });
  const compact = (v) => (Number.isFinite(v) ? compactFormat.format(v) : '');
  window.addEventListener('resize', () => {
    for (const [id, chart] of charts)
      chart.setSize({ width: chartWidth($(id)), height: chart.height });
  });

  /** Weekly sums as bars, and the 7-day average (sum / days with records) as a line. */
  function weeklyWithAverage(history, key, color, from) {
    const keep = history.weeks.map((w) => !from || w >= from);
    const pick = (values) => values.filter((_, i) => keep[i]);
    const times = pick(history.weeks).map(toTime);
    const sums = pick(history[key]);
    const days = pick(history.days);
    return {
      times,
      series: [
        {
          label: t(key === 'new_cases' ? 'weeklyCases' : 'weeklyDeaths'),
          values: sums,
          bars: true,
          color,
        },
        {
          label: t('avg7'),
          values: sums.map((s, i) => (days[i] > 0 ? s / days[i] : null)),
          scale: 'avg',
          color: '#222',
        },
      ],
    };
  }

  // ---------- overview ----------
  let topRows = [];
  let topSort = { key: 'total_cases', descending: true };
  const daysSince = (date) =>
    Math.max(0, Math.floor((Date.now() - Date.parse(`${date}T00:00:00Z`)) / dayMs));
  const freshness = (date) =>
    date ? `${formatDate(date)} (${t('ago')(daysSince(date))})` : t('none');

  async function showOverview() {
    say('overview-message', '');
    try {
      const [totals, mpox, countries, world] = await Promise.all([
        api('/api/covid/public/totals'),
        api('/api/mpox/public/summary'),
        api('/api/covid/public/countries'),
        api('/api/covid/public/weekly'),
      ]);
      $('covid-cases').textContent = num(totals.total_cases);
      $('covid-deaths').textContent = num(totals.total_deaths);
      const covidLast = countries.reduce((max, c) => (c.date > max ? c.date : max), '');
      $('covid-date').textContent = freshness(covidLast);
      $('mpox-cases').textContent = num(mpox.total_cases);
      $('mpox-deaths').textContent = num(mpox.total_deaths);
      $('mpox-date').textContent = freshness(mpox.last_date);
      topRows = countries;
      renderTop();
      const cases = weeklyWithAverage(world, 'new_cases', COLORS[0]);
      drawChart('world-cases', t('weeklyCases'), cases.times, cases.series);
      const deaths = weeklyWithAverage(world, 'new_deaths', COLORS[1]);
      drawChart('world-deaths', t('weeklyDeaths'), deaths.times, deaths.series);
      performance.mark('overview-ready');
    } catch (error) {
      say('overview-message', problemText(error));
    }
  }

  function renderTop() {
    const { key, descending } = topSort;
    const sorted = [...topRows].sort((a, b) => {
      const order =
        typeof a[key] === 'number'
          ? a[key] - b[key]
          : String(a[key]).localeCompare(String(b[key]), lang);
      return descending ? -order : order;
    });
    const body = $('top').tBodies[0];
    body.textContent = '';
    for (const row of sorted.slice(0, 20)) {
      const tr = body.insertRow();
      const link = document.createElement('a');
      link.href = `#country/${encodeURIComponent(row.country)}`;
      link.textContent = row.country;
      tr.insertCell().append(link);
      for (const value of [num(row.total_cases), num(row.total_deaths)]) {
        const cell = tr.insertCell();
        cell.className = 'num';
        cell.textContent = value;
      }
      tr.insertCell().textContent = formatDate(row.date);
    }
    for (const th of $('top').tHead.rows[0].cells) {
      const column = th.querySelector('button').dataset.sort;
      th.setAttribute(
        'aria-sort',
        column === key ? (descending ? 'descending' : 'ascending') : 'none',
      );
    }
  }

  $('top').tHead.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-sort]');
    if (!button) return;
    const key = button.dataset.sort;
    topSort = { key, descending: topSort.key === key ? !topSort.descending : key !== 'country' };
    renderTop();
  });

  // ---------- country ----------
  let listLoaded = false;
  async function loadCountryList() {
    if (listLoaded) return;
    const list = await api('/api/covid/public/countries');
    const datalist = $('country-list');
    for (const { country } of list) {
      const option = document.createElement('option');
      option.value = country;
      datalist.append(option);
    }
    listLoaded = true;
  }

  function rangeStart(history, range) {
    if (range === 'all' || history.weeks.length === 0) return null;
    const last = history.weeks[history.weeks.length - 1];
    return new Date(Date.parse(`${last}T00:00:00Z`) - Number(range) * dayMs)
      .toISOString()
      .slice(0, 10);
  }

  const weeklyPath = (disease, country) =>
    `/api/${disease}/public/country/${encodeURIComponent(country)}/weekly`;

  async function showCountry(name) {
    const wanted = (name || '').trim();
    say('country-message', '');
    say('country-mpox-message', '');
    say('country-name', '');
    if (!wanted) return;
    $('country-input').value = wanted;
    let covid;
    try {
      covid = await api(weeklyPath('covid', wanted));
    } catch (error) {
      say('country-message', problemText(error));
      say('country-name', '');
      for (const id of ['country-cases', 'country-deaths', 'country-totals', 'country-mpox'])
        clearChart(id);
      return;
    }
    say('country-name', covid.country);
    const from = rangeStart(covid, $('country-range').value);
    const cases = weeklyWithAverage(covid, 'new_cases', COLORS[0], from);
    drawChart('country-cases', `${covid.country} — ${t('weeklyCases')}`, cases.times, cases.series);
    const deaths = weeklyWithAverage(covid, 'new_deaths', COLORS[1], from);
    drawChart(
      'country-deaths',
      `${covid.country} — ${t('weeklyDeaths')}`,
      deaths.times,
      deaths.series,
    );
    const keep = covid.weeks.map((w) => !from || w >= from);
    const pick = (values) => values.filter((_, i) => keep[i]);
    drawChart(
      'country-totals',
      `${covid.country} — ${t('totalCases')} / ${t('totalDeaths')}`,
      pick(covid.weeks).map(toTime),
      [
        { label: t('totalCases'), values: pick(covid.total_cases), color: COLORS[0] },
        {
          label: t('totalDeaths'),
          values: pick(covid.total_deaths),
          color: COLORS[1],
          scale: 'avg',
        },
      ],
    );
    try {
      const mpox = await api(weeklyPath('mpox', covid.country));
      const mpoxCases = weeklyWithAverage(
        mpox,
        'new_cases',
        COLORS[3],
        rangeStart(mpox, $('country-range').value),
      );
      drawChart('country-mpox', `MPOX — ${t('weeklyCases')}`, mpoxCases.times, mpoxCases.series);
    } catch (error) {
      clearChart('country-mpox');
      say(
        'country-mpox-message',
        error instanceof ApiProblem && error.status === 404 ? t('noMpox') : problemText(error),
      );
    }
  }

  $('country-form').addEventListener('submit', (event) => {
    event.preventDefault();
    location.hash = `country/${encodeURIComponent($('country-input').value.trim())}`;
  });
  $('country-range').addEventListener('change', () => {
    if ($('country-input').value.trim()) void showCountry($('country-input').value);
  });

  // ---------- compare ----------
  async function showCompare() {
    say('compare-message', '');
    const names = [1, 2, 3, 4].map((i) => $(`compare-${i}`).value.trim()).filter(Boolean);
    if (names.length === 0) {
      clearChart('compare-chart');
      say('compare-message', t('pickOne'));
      return;
    }
    let histories;
    try {
      histories = await Promise.all(names.map((n) => api(weeklyPath('covid', n))));
    } catch (error) {
      clearChart('compare-chart');
      say('compare-message', problemText(error));
      return;
    }
    const daily = $('compare-mode').value === 'daily';
    const weeks = [...new Set(histories.flatMap((h) => h.weeks))].sort();
    const series = histories.map((h, i) => {
      const at = new Map(h.weeks.map((w, j) => [w, j]));
      return {
        label: h.country,
        color: COLORS[i],
        values: weeks.map((w) => {
          const j = at.get(w);
          if (j === undefined) return null;
          return daily ? (h.days[j] > 0 ? h.new_cases[j] / h.days[j] : null) : h.total_cases[j];
        }),
      };
    });
    drawChart('compare-chart', t(daily ? 'perDay' : 'absolute'), weeks.map(toTime), series);
  }
  $('compare-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void showCompare();
  });

  // ---------- data status ----------
  async function showStatus() {
    say('status-message', '');
    const token = sessionStorage.getItem(TOKEN_KEY);
    const table = $('sources');
    table.tHead.textContent = '';
    table.tBodies[0].textContent = '';
    if (!token) return;
    let sources;
    try {
      sources = await api('/api/sources', { Authorization: `Bearer ${token}` });
    } catch (error) {
      if (error instanceof ApiProblem && error.status === 404) say('status-message', t('syncOff'));
      else if (error instanceof ApiProblem && error.status === 403)
        say('status-message', t('scopeMissing'));
      else if (error instanceof ApiProblem && error.status === 401)
        say('status-message', t('tokenRefused'));
      else say('status-message', problemText(error));
      return;
    }
    const rows = Array.isArray(sources && sources.sources) ? sources.sources : [];
    const sync = (sources && sources.sync) || {};
    if (sync.enabled && sync.next_run_at) {
      const next = new Date(sync.next_run_at).toLocaleString(lang === 'fr' ? 'fr-FR' : 'en-GB');
      say('status-message', t('syncEvery')(sync.interval, next));
    } else if (rows.length === 0) {
      say('status-message', t(sync.enabled === false ? 'syncOff' : 'noSources'));
    }
    if (rows.length === 0) return;
    const head = table.tHead.insertRow();
    for (const label of t('sourceColumns')) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = label;
      head.append(th);
    }
    const time = (iso) =>
      iso ? new Date(iso).toLocaleString(lang === 'fr' ? 'fr-FR' : 'en-GB') : t('none');
    for (const row of rows) {
      const tr = table.tBodies[0].insertRow();
      const cells = [
        `${row.dataset} ${row.url}`,
        time(row.last_attempt_at),
        time(row.last_success_at),
        row.outcome ? t('outcomes')[row.outcome] || row.outcome : t('none'),
        t('rowCounts')(num(row.rows_inserted), num(row.rows_updated), num(row.rows_unchanged)),
        row.last_error || t('none'),
      ];
      for (const text of cells) tr.insertCell().textContent = text;
    }
  }
  $('status-form').addEventListener('submit', (event) => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, $('status-token').value);
    $('status-token').value = '';
    void showStatus();
  });
  $('status-forget').addEventListener('click', () => {
    sessionStorage.removeItem(TOKEN_KEY);
    void showStatus();
  });

  // ---------- language and views ----------
  function applyLanguage() {
    document.documentElement.lang = lang;
    document.title = t('title');
    for (const element of document.querySelectorAll('[data-i18n]'))
      element.textContent = t(element.dataset.i18n);
    for (const element of document.querySelectorAll('[data-i18n-label]'))
      element.setAttribute('aria-label', t(element.dataset.i18nLabel));
    const button = $('lang');
    button.textContent = t('switchTo');
    button.lang = lang === 'fr' ? 'en' : 'fr';
  }
  $('lang').addEventListener('click', () => {
    lang = lang === 'fr' ? 'en' : 'fr';
    localStorage.setItem(LANG_KEY, lang);
    const url = new URL(location.href);
    url.searchParams.set('lang', lang);
    history.replaceState(null, '', url);
    numbers = new Intl.NumberFormat(lang === 'fr' ? 'fr-FR' : 'en-GB');
    compactFormat = new Intl.NumberFormat(lang === 'fr' ? 'fr-FR' : 'en-GB', {
      notation: 'compact',
    });
    applyLanguage();
    void route();
  });

  async function route() {
    const [view, argument] = (location.hash.slice(1) || 'overview').split('/');
    const current = ['overview', 'country', 'compare', 'status'].includes(view) ? view : 'overview';
    for (const section of document.querySelectorAll('main > section'))
      section.hidden = section.id !== current;
    for (const link of document.querySelectorAll('nav a')) {
      if (link.dataset.view === current) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    if (current === 'overview') return showOverview();
    if (current === 'status') return showStatus();
    try {
      await loadCountryList();
    } catch (error) {
      say(`${current}-message`, problemText(error));
      return;
    }
    if (current === 'country')
      return showCountry(argument ? decodeURIComponent(argument) : $('country-input').value);
  }

  window.addEventListener('hashchange', () => void route());
  applyLanguage();
  void route().then(() => document.body.setAttribute('data-ready', 'true'));
})();
