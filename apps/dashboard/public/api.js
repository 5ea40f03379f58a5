// The API's public routes (and /api/sources with a typed token), and their errors as messages.
import { t } from './language.js';

/** An API answer that is not 2xx, turned into the view's message. */
export class ApiProblem extends Error {
  constructor(status, retryAfter) {
    super(`HTTP ${status}`);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

export async function api(path, headers) {
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

export const weeklyPath = (disease, country) =>
  `/api/${disease}/public/country/${encodeURIComponent(country)}/weekly`;

export function problemText(error) {
  if (!(error instanceof ApiProblem)) return t('offline');
  if (error.status === 404) return t('notFound');
  if (error.status === 429) {
    const wait = Number(error.retryAfter);
    return Number.isFinite(wait) && wait >= 0 ? t('tooMany')(Math.ceil(wait)) : t('tooManyNoWait');
  }
  if (error.status === 503) return t('unavailable');
  if (error.status === 0) return t('offline');
  return t('failed')(error.status);
}
