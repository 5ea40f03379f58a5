/*
 * CSV cells that a spreadsheet would run as formulas are neutralised in every CSV the service
 * writes (a single quote before them, quoted: OWASP), while numbers, negative ones included, stay
 * numbers. Such country names are refused on write, so the test stores them behind the API's
 * back, as a record written before the rule (or an older import) would hold them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { cliTestBed } from '../../support/cli-test-bed';
import { DISEASE_KEYS, recordBody } from '../../support/fixtures';

/** Each name, and its cell as the CSV writes it. */
const FORMULAS: [string, string][] = [
  ['=1+2', `"'=1+2"`],
  ['+SUM(A1)', `"'+SUM(A1)"`],
  ['-2+3', `"'-2+3"`],
  ['@cmd', `"'@cmd"`],
  ['=HYPERLINK("http://x","a")', `"'=HYPERLINK(""http://x"",""a"")"`],
];

const NUMBER = /^-?\d+(\.\d+)?(e[+-]\d+)?$/;

/** Every cell of a CSV answer that a spreadsheet would run: those starting with = + - @ tab CR. */
function formulaCells(text: string): string[] {
  const rows: string[][] = parse(text);
  return rows.flat().filter((cell) => /^[=+\-@\t\r]/.test(cell) && !NUMBER.test(cell));
}

describe.each(DISEASE_KEYS)('CSV cells a spreadsheet would run (%s)', (key) => {
  const bed = cliTestBed('csv-injection-');
  const ids: number[] = [];

  beforeAll(async () => {
    const { t } = bed;
    for (const [i, [name]] of FORMULAS.entries()) {
      const res = await t.http
        .post(`/api/${key}/data`)
        .set(t.auth())
        .send(
          recordBody({
            country: `Formula ${i}`,
            date: `2021-03-0${i + 1}`,
            total_cases: 10,
            new_cases: -3,
            total_deaths: 1,
            new_deaths: -5.5,
          }),
        );
      expect(res.status).toBe(201);
      ids.push(res.body.id as number);
      await t.dataSource.query(`UPDATE ${key}_data SET country = ? WHERE id = ?`, [
        name,
        res.body.id,
      ]);
      await t.dataSource.query(`UPDATE ${key}_revisions SET country = ? WHERE record_id = ?`, [
        name,
        res.body.id,
      ]);
    }
  });

  it.each(FORMULAS.map(([name]) => name))(
    'refuses %p as a country on write (400)',
    async (name) => {
      const { t } = bed;
      const res = await t.http
        .post(`/api/${key}/data`)
        .set(t.auth())
        .send(recordBody({ country: ` ${name}` }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'Données invalides.',
        details: [
          'country : ne doit pas commencer par =, +, - ou @ (un tableur y verrait une formule)',
        ],
      });
    },
  );

  it('refuses such a country in an import, as an invalid row named by its line', async () => {
    const file = join(bed.dir, `${key}-formula.csv`);
    writeFileSync(
      file,
      'date,country,total_cases,new_cases,total_deaths,new_deaths\n2021-04-01,@cmd,1,1,0,0\n',
    );
    const result = await bed.cli('import', key, file);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'line 2: country : ne doit pas commencer par =, +, - ou @ (un tableur y verrait une formule)\n' +
        'error: 1 invalid row(s) (see their line numbers above); nothing was imported\n',
    );
  });

  const routes = [
    `/api/${key}/data?format=csv`,
    `/api/${key}/countries?format=csv`,
    `/api/${key}/public/countries?format=csv`,
    `/api/${key}/changes?format=csv`,
    ...(key === 'covid'
      ? ['/api/covid/public/latest?format=csv', '/api/covid/public/country/Formula%202?format=csv']
      : []),
  ];

  it.each(routes)('neutralises them in %s', async (url) => {
    const { t } = bed;
    const res = await t.http.get(url).set(t.auth());
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(formulaCells(res.text)).toEqual([]);
    const expected = url.includes('/country/') ? FORMULAS.slice(2, 3) : FORMULAS;
    for (const [, cell] of expected) {
      expect(res.text).toMatch(new RegExp(`(^|,)${cell.replace(/[()+.]/g, '\\$&')}(,|\r\n)`, 'm'));
    }
  });

  it('keeps numbers, negative ones included, unquoted numbers', async () => {
    const { t } = bed;
    const res = await t.http.get(`/api/${key}/data?format=csv`).set(t.auth());
    expect(res.text.split('\r\n')).toEqual(
      expect.arrayContaining([
        `${ids[0]},2021-03-01,"'=1+2",10,-3,1,-5.5`,
        `${ids[2]},2021-03-03,"'-2+3",10,-3,1,-5.5`,
      ]),
    );
  });

  it("neutralises them in the command line's export, numbers left as they are", async () => {
    const result = await bed.cli('export', key);
    expect(result.code).toBe(0);
    expect(formulaCells(result.stdout)).toEqual([]);
    expect(result.stdout).toBe(
      'date,country,total_cases,new_cases,total_deaths,new_deaths\n' +
        FORMULAS.map(([, cell], i) => `2021-03-0${i + 1},${cell},10,-3,1,-5.5\n`).join(''),
    );
  });
});
