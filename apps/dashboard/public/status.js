// The data status for token holders: the token stays in this tab's sessionStorage and is sent to
// /api/sources only.
import { ApiProblem, api, problemText } from './api.js';
import { formatTime, num, t } from './language.js';
import { $, say } from './page.js';

const TOKEN_KEY = 'dashboard.token';

export async function showStatus() {
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
    say('status-message', t('syncEvery')(sync.interval, formatTime(sync.next_run_at)));
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
  for (const row of rows) {
    const tr = table.tBodies[0].insertRow();
    const cells = [
      `${row.dataset} ${row.url}`,
      formatTime(row.last_attempt_at),
      formatTime(row.last_success_at),
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
