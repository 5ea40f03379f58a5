/** Largest batch of `POST /<key>/data/bulk`; here so that `MESSAGES.bulkTooLarge` is built from it. */
export const MAX_BULK_RECORDS = 10_000;

/** User-facing messages (French, like the two the interface fixes). */
export const MESSAGES = {
  noToken: 'Accès refusé. Aucun jeton fourni.',
  invalidToken: 'Jeton invalide.',
  insufficientScope: 'Ce jeton ne permet pas cette opération.',
  tooManyRequests: 'Trop de requêtes. Réessayez plus tard.',
  internal: 'Erreur interne du serveur.',
  databaseUnavailable: 'Base de données indisponible. Réessayez plus tard.',
  shuttingDown: 'Service en cours d’arrêt. Réessayez plus tard.',
  writeRaceLost:
    'D’autres écritures modifient sans cesse les mêmes enregistrements. Réessayez dans un instant.',
  invalidBody: 'Données invalides.',
  invalidQuery: 'Paramètres de requête invalides.',
  invalidParam: 'Paramètre de chemin invalide.',
  malformedJson: 'Corps de requête JSON invalide.',
  malformedRequest: 'Requête HTTP mal formée.',
  badUrl: 'Adresse mal formée : encodage invalide.',
  urlTooLong: 'Adresse trop longue.',
  headersTooLarge: 'En-têtes de requête trop volumineux.',
  requestTimeout: 'Requête trop lente : délai dépassé.',
  payloadTooLarge: 'Corps de requête trop volumineux.',
  unsupportedMediaType: 'Type de contenu non pris en charge : envoyez du JSON (application/json).',
  refused: 'Requête refusée.',
  routeNotFound: 'Ressource introuvable.',
  methodNotAllowed: 'Méthode non autorisée.',
  recordNotFound: 'Enregistrement introuvable.',
  countryNotFound: 'Pays introuvable.',
  duplicateRecord: 'Un enregistrement existe déjà pour ce pays et cette date.',
  created: 'Données ajoutées avec succès.',
  updated: 'Données mises à jour avec succès.',
  deleted: 'Données supprimées avec succès.',
  bulkTooLarge: `Lot trop volumineux : ${MAX_BULK_RECORDS} enregistrements au plus par requête.`,
} as const;
