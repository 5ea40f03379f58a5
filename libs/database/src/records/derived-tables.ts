/**
 * The tables that each write keeps beside the history for the reads (decision 0036), by name:
 * the corrections, the corrected days and the regions' daily sums with their members.
 */
export interface CorrectionTables {
  revisions: string;
  corrections: string;
  correctedDays: string;
}

export function correctionTables(key: string): CorrectionTables {
  return {
    revisions: `${key}_revisions`,
    corrections: `${key}_corrections`,
    correctedDays: `${key}_corrected_days`,
  };
}

/** The regions' members, shared by both diseases (`reconcileRegionMembers` keeps it). */
export const REGION_MEMBERS = 'region_members';

export const regionDaysTable = (key: string) => `${key}_region_days`;

/** Each country's records: how many, the first and the last date (`CountrySummaryStatements`). */
export const countrySummariesTable = (key: string) => `${key}_country_summaries`;
