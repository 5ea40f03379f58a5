import { ValueTransformer } from 'typeorm';

/** MySQL returns BIGINT as a string; the API promises JSON numbers (values are kept <= 2^53-1). */
export const bigintToNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};
