import { populationRows, shownSource } from './population-rows';

const records = (...lines: string[]) =>
  lines.map((line, i) => ({ cells: line.split(','), line: i + 1 }));

const NEXT_YEAR = new Date().getUTCFullYear() + 1;

describe('population rows', () => {
  it('matches places by ISO code first, then name; counts and names the others', () => {
    const parsed = populationRows(
      records(
        'entity,iso_code,year,population',
        'Francia,FRA,2020,67000000.0',
        'Kosovo,OWID_KOS,2020,1800000',
        'World,OWID_WRL,2020,7800000000',
        'Peru,,2020,33000000',
        'Atlantis,ATL,2020,10',
        'France,FRA,2020,1',
        'Chile,CHL,2020,',
      ),
      'table.csv',
    );
    expect(parsed).toEqual({
      rows: [
        { iso3: 'FRA', year: 2020, country: 'France', population: 67000000, source: 'table.csv' },
        { iso3: 'XKX', year: 2020, country: 'Kosovo', population: 1800000, source: 'table.csv' },
        { iso3: 'PER', year: 2020, country: 'Peru', population: 33000000, source: 'table.csv' },
      ],
      summary: {
        rowsRead: 7,
        matched: 3,
        aggregates: { World: 1 },
        unmatched: { Atlantis: 1 },
        duplicates: { 'France (FRA 2020)': 1 },
        notReported: 1,
        invalid: [],
      },
    });
  });

  it('takes the source column when there is one, and reports unreadable rows by line', () => {
    const parsed = populationRows(
      records(
        'Entity,ISO_CODE,Year,Population,Source',
        'Peru,PER,2020,5,UN WPP',
        'Chile,CHL,20x,5,',
        'Chile,CHL,2020,-4,',
      ),
      'file',
    );
    expect(parsed).toMatchObject({
      rows: [{ iso3: 'PER', source: 'UN WPP' }],
      summary: {
        invalid: [
          `line 3: year "20x" is not a year from 1800 to ${NEXT_YEAR}`,
          'line 4: population "-4" is not a whole number of people above 0',
        ],
      },
    });
  });

  it('reads whole numbers of people above 0 in plausible years only', () => {
    const rows = [
      ['2020', '0x10'],
      ['2020', '1e3'],
      ['2020', '-0'],
      ['2020', '0'],
      ['2020', '1.5'],
      ['2020', '+5'],
      ['2020', '012'],
      ['2020', '9007199254740993'],
      ['1799', '5'],
      [String(NEXT_YEAR + 1), '5'],
      ['-500', '5'],
      ['2020.0', '5'],
    ];
    const parsed = populationRows(
      records(
        'entity,iso_code,year,population',
        ...rows.map(([year, population]) => `Peru,PER,${year},${population}`),
        'Peru,PER,1800,7',
        `Chile,CHL,${NEXT_YEAR},19000000.0`,
      ),
      'f',
    );
    expect(parsed).toMatchObject({
      rows: [
        { iso3: 'PER', year: 1800, population: 7 },
        { iso3: 'CHL', year: NEXT_YEAR, population: 19000000 },
      ],
    });
    const invalid = 'summary' in parsed ? parsed.summary.invalid : [];
    expect(invalid.map((problem) => problem.replace(/:.*/, ''))).toEqual(
      rows.map((_, i) => `line ${i + 2}`),
    );
    expect(invalid[8]).toBe(`line 10: year "1799" is not a year from 1800 to ${NEXT_YEAR}`);
  });

  it('refuses a header without the required columns', () => {
    expect(populationRows(records('country,year,population'), 'f')).toEqual({
      problem:
        'unrecognised population header: expected entity,iso_code,year,population (and optionally source), missing entity, iso_code',
    });
  });

  it('shows URLs in a source without credentials, query string or fragment', () => {
    expect(shownSource('UN WPP (https://u:p@example.org/wpp.csv?key=SECRET#x), 2022')).toBe(
      'UN WPP (https://example.org/wpp.csv), 2022',
    );
    expect(shownSource('x'.repeat(300))).toHaveLength(200);
    // Any scheme, any absolute path; cleaned before it is cut.
    const signature = `X-Amz-Signature=${'f'.repeat(300)}`;
    expect(
      shownSource(
        `ftp://admin:pw@h.example/p.csv?token=T; s3://b/k.csv?${signature}; /srv/x/p.csv`,
      ),
    ).toBe('ftp://h.example/p.csv; s3://b/k.csv; p.csv');
    expect(shownSource(`${'y'.repeat(150)} https://u:p@h.example/p.csv?${signature}`)).toBe(
      `${'y'.repeat(150)} https://h.example/p.csv`,
    );
  });
});
