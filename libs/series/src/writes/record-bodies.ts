import { ApiError, MESSAGES } from '@app/common';
import { RecordValues, isUniqueViolation } from '@app/database';

/** Only the stored fields: a body's legacy fields (`total_recovered`...) are dropped here. */
export function toValues(body: RecordValues): RecordValues {
  return {
    date: body.date,
    country: body.country.trim(),
    total_cases: body.total_cases,
    new_cases: body.new_cases,
    total_deaths: body.total_deaths,
    new_deaths: body.new_deaths,
  };
}

/** A duplicate country and date, refused by the unique index: 409. */
export async function refusedAs409<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw ApiError.conflict(MESSAGES.duplicateRecord);
    throw error;
  }
}
