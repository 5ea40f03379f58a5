import { ApiError, ErrorBody } from '@app/common';
import { recordBody } from '../../../../test/support/fixtures';
import { RecordBodyDto } from '../disease-routes/dto/record-body.dto';
import { BodyValidationPipe } from './body-validation.pipe';

const pipe = new BodyValidationPipe();
const body = { type: 'body' as const, metatype: RecordBodyDto };
const record = recordBody();

/** The `details` of the 400 a raw JSON body gets. */
async function refusal(json: string): Promise<string[] | undefined> {
  const error: unknown = await pipe.transform(JSON.parse(json), body).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return ((error as ApiError).getResponse() as ErrorBody).details;
}

// What Nest's ValidationPipe does not say by itself: the shape checks run before it.
describe('BodyValidationPipe', () => {
  it('gives a valid body as its DTO', async () => {
    const dto = await pipe.transform({ ...record }, body);
    expect(dto).toBeInstanceOf(RecordBodyDto);
    expect(dto).toEqual(record);
  });

  it('names __proto__ as an unknown field instead of dropping it', async () => {
    const json = JSON.stringify(record).replace('{', '{"__proto__":{"isAdmin":true},');
    expect(await refusal(json)).toEqual(['__proto__ : champ inconnu']);
  });

  it('names an unknown field by its first 100 characters, once', async () => {
    const long = 'x'.repeat(100);
    const json = JSON.stringify({ ...record, [`${long}a`]: 1, [`${long}b`]: 2 });
    expect(await refusal(json)).toEqual([`${long} : champ inconnu`]);
  });

  it('refuses a nested value once, before the problems of the other fields', async () => {
    const json = JSON.stringify({ ...record, date: { a: 1 }, total_cases: -1, extra: 1 });
    expect(await refusal(json)).toEqual([
      'date : doit être une valeur simple (nombre ou chaîne)',
      'extra : champ inconnu',
      'total_cases : doit être un entier de 0 à 1000000000000',
    ]);
  });
});
