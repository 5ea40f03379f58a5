/** Where the dashboard lives: its page and, under it, its assets. */
export const DASHBOARD_PATH = '/dashboard';
export const DASHBOARD_ASSETS_PATH = `${DASHBOARD_PATH}/assets`;

/** `/` (which redirects to the dashboard), the page, and its assets (query strings ignored). */
export function isDashboardPath(url: string): boolean {
  const path = url.split('?', 1)[0];
  return path === '/' || path === DASHBOARD_PATH || path.startsWith(`${DASHBOARD_PATH}/`);
}
