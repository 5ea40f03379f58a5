import { isDashboardPath } from './dashboard-paths';

describe('isDashboardPath', () => {
  it.each([
    '/',
    '/?from=docs',
    '/dashboard',
    '/dashboard/',
    '/dashboard?x=1',
    '/dashboard/assets/app.js',
  ])('is true for %s', (url) => expect(isDashboardPath(url)).toBe(true));

  it.each(['/api/covid/public/latest', '/dashboards', '/dashboardx/a', '/api/dashboard', '//', ''])(
    'is false for %s',
    (url) => expect(isDashboardPath(url)).toBe(false),
  );
});
