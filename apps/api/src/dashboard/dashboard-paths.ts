/** Where the dashboard lives: its page and, under it, its assets. */
export const DASHBOARD_PATH = '/dashboard';
export const DASHBOARD_ASSETS_PATH = `${DASHBOARD_PATH}/assets`;

/** `/` (which redirects to the dashboard), the page, and its assets (query strings ignored). */
export function isDashboardPath(url: string): boolean {
  // Read in place: it runs on every request (security headers), and an API URL fails at once.
  if (url === '/' || url.startsWith('/?')) return true;
  if (!url.startsWith(DASHBOARD_PATH)) return false;
  const next = url.charAt(DASHBOARD_PATH.length);
  return next === '' || next === '/' || next === '?';
}
