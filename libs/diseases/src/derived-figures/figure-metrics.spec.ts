import { decodeFigureCursor, encodeFigureCursor } from './figure-cursor';
import { METRICS, parseMetrics } from './figure-metrics';
import { perMillion, roundFigure } from './figure-rounding';
import { PopulationTable } from './population-table';

describe('figure metrics, rounding, cursor and population', () => {
  it('parses a metric list in order, each once; all by default; names the unknown ones', () => {
    expect(parseMetrics(undefined)).toEqual({ metrics: [...METRICS] });
    expect(parseMetrics(' new_cases , total_cases,new_cases')).toEqual({
      metrics: ['new_cases', 'total_cases'],
    });
    expect(parseMetrics('new_cases,cases,x,cases')).toEqual({ unknown: ['cases', 'x'] });
  });

  it('rounds to 3 decimals, halves away from zero, never -0', () => {
    expect(roundFigure(1.23449)).toBe(1.234);
    expect(roundFigure(0.0025)).toBe(0.003);
    expect(roundFigure(-0.0025)).toBe(-0.003);
    expect(Object.is(roundFigure(-0.0001), 0)).toBe(true);
    expect(roundFigure(null)).toBeNull();
    expect(perMillion(5, 0)).toBeNull();
    expect(perMillion(5, 2_000_000)).toBe(2.5);
  });

  it('uses the population of the year, else the nearest year (the earlier of two as near)', () => {
    const table = new PopulationTable([
      { iso3: 'FRA', year: 2020, population: 20 },
      { iso3: 'FRA', year: 2022, population: 22 },
      { iso3: 'PER', year: 2020, population: 5 },
    ]);
    expect([2019, 2020, 2021, 2022, 2030].map((y) => table.of('FRA', y))).toEqual([
      20, 20, 20, 22, 22,
    ]);
    expect(table.of('CHL', 2020)).toBeNull();
    expect(table.sum(['FRA', 'PER', 'CHL'], 2022)).toBe(27);
    expect(table.sum(['CHL'], 2022)).toBeNull();
  });

  it('encodes cursors that decode back, and refuses anything else', () => {
    const cursor = { key: 'côte d’ivoire', date: '2023-03-01' };
    expect(decodeFigureCursor(encodeFigureCursor(cursor))).toEqual(cursor);
    expect(decodeFigureCursor('nope')).toBeUndefined();
    expect(
      decodeFigureCursor(Buffer.from('2023-02-30,france').toString('base64url')),
    ).toBeUndefined();
  });
});
