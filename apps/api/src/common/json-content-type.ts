/** Content type of the answers that controllers return as ready-made JSON text. */
export const JSON_TYPE = 'application/json; charset=utf-8';
