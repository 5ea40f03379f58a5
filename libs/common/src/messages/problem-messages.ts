import { FieldProblem } from './field-problem';

/** The French wording of a problem, without the field. */
function wording(p: FieldProblem): string {
  switch (p.problem) {
    case 'required':
      return 'champ obligatoire';
    case 'unknown':
      return 'champ inconnu';
    case 'unknown-parameter':
      return 'paramètre inconnu';
    case 'not-plain':
      return 'doit être une valeur simple (nombre ou chaîne)';
    case 'not-a-date':
      return 'doit être une date au format AAAA-MM-JJ';
    case 'not-a-calendar-date':
      return `${p.value} n'est pas une date du calendrier`;
    case 'date-out-of-range':
      return `doit être comprise entre ${p.earliest} et demain (UTC)`;
    case 'not-a-string':
      return 'doit être une chaîne de caractères';
    case 'control-character':
      return 'ne doit pas contenir de caractères de contrôle';
    case 'lone-surrogate':
      return 'ne doit pas contenir de demi-caractère Unicode isolé';
    case 'formula-start':
      return 'ne doit pas commencer par =, +, - ou @ (un tableur y verrait une formule)';
    case 'length-out-of-range':
      return `doit contenir de ${p.min} à ${p.max} caractères`;
    case 'not-an-integer-in-range':
      return `doit être un entier de ${p.min} à ${p.max}`;
    case 'not-an-integer-from':
      return p.min > 0
        ? 'doit être un entier strictement positif'
        : 'doit être un entier positif ou nul';
    case 'not-a-number':
      return 'doit être un nombre';
    case 'number-out-of-range':
      return `doit être un nombre de ${p.min} à ${p.max}`;
    case 'later-than':
      return `doit être antérieure ou égale à ${p.other}`;
    case 'not-one-of':
      return `doit valoir ${p.values.slice(0, -1).join(', ')} ou ${p.values[p.values.length - 1]}`;
    case 'not-a-cursor':
      return 'doit être un curseur reçu dans l\'en-tête Link (rel="next")';
    case 'not-with':
      return `ne peut pas être combiné avec ${p.other}`;
    case 'not-an-instant':
      return 'doit être une date AAAA-MM-JJ ou une date-heure ISO 8601 avec fuseau (2026-11-26T10:00:00Z)';
    case 'in-the-future':
      return 'ne doit pas être dans le futur';
    case 'before-kept-history':
      return `doit être postérieur ou égal à ${p.since} : l'historique antérieur a été élagué`;
    case 'invalid':
      return 'valeur invalide';
    case 'unknown-metric':
      return `indicateur inconnu : ${p.names.join(', ')}`;
    case 'not-a-place':
      return "n'est ni un pays, ni une région (GET /api/regions liste les régions et leurs codes)";
  }
}

/** A problem as one line of a 400 answer's `details` (and of the importer's row reports). */
export function problemMessage(problem: FieldProblem): string {
  return `${problem.field} : ${wording(problem)}`;
}

/** Lines of `details` about the body as a whole rather than one of its fields. */
export const BODY_PROBLEMS = {
  notAnObject: 'le corps doit être un objet JSON',
  notARecordArray: "le corps doit être un tableau JSON d'enregistrements",
  notJson: 'le corps doit être un document JSON valide',
  empty: 'le corps de la requête est vide',
} as const;

/** A line of a batch's `details`: the problem of the record at `index`. */
export function recordLine(index: number, line: string): string {
  return `[${index}] ${line}`;
}

export const RECORD_NOT_AN_OBJECT = 'doit être un objet JSON';

/** The last line of a cut `details` list. */
export function moreProblems(count: number): string {
  return `… et ${count} autres problèmes`;
}
