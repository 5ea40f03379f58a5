import { resolveCountry } from './country-directory';
import { REGION_NAMES, allRegions, regionNamed } from './regions';

const membersOf = (name: string) => regionNamed(name)!.members.map((m) => m.iso2);

describe('regions', () => {
  it('no region name, code or alias is a country', () => {
    for (const region of allRegions()) {
      for (const name of [region.name, region.code, ...region.aliases]) {
        expect([name, resolveCountry(name)]).toEqual([name, undefined]);
      }
    }
  });

  it('finds a region by name, code or alias, case and blanks ignored', () => {
    expect(regionNamed(' european  UNION ')!.code).toBe('EU');
    expect(regionNamed('eu')!.name).toBe('European Union');
    expect(regionNamed('European Union (27)')!.code).toBe('EU');
    expect(regionNamed('afro')!.name).toBe('African Region');
    expect(regionNamed('AMR')!.name).toBe('Region of the Americas');
    expect(regionNamed('owid_eur')!.name).toBe('Europe');
    expect(regionNamed('Eurasia')).toBeUndefined();
    expect(REGION_NAMES).toContain('SEARO');
  });

  it('places the continents as OWID does', () => {
    expect(membersOf('Europe')).toEqual(expect.arrayContaining(['RU', 'XK', 'CY']));
    expect(membersOf('Asia')).toEqual(expect.arrayContaining(['TL', 'TR', 'GE', 'KZ']));
    expect(membersOf('Asia')).not.toContain('RU');
    expect(membersOf('Oceania')).not.toContain('TL');
    expect(membersOf('Africa')).toContain('EG');
    expect(membersOf('North America')).toEqual(expect.arrayContaining(['GL', 'PA', 'TT']));
    // Every country is on one continent at most; only OWID's Antarctica is on none.
    const continents = allRegions().filter((r) => r.grouping === 'continent');
    const placed = continents.flatMap((r) => r.members.map((m) => m.iso2));
    expect(new Set(placed).size).toBe(placed.length);
    const world = regionNamed('World')!.members.map((m) => m.iso2);
    expect(world.filter((iso2) => !placed.includes(iso2)).sort()).toEqual(['AQ', 'BV', 'HM', 'TF']);
  });

  it('has the 27 members of the European Union', () => {
    expect(membersOf('EU')).toHaveLength(27);
    expect(membersOf('EU')).not.toContain('GB');
  });

  it("places WHO's regions as WHO's files do", () => {
    const who = allRegions().filter((r) => r.grouping === 'who');
    expect(who.map((r) => r.code)).toEqual(['AFRO', 'AMRO', 'EMRO', 'EURO', 'SEARO', 'WPRO']);
    expect(membersOf('EURO')).toEqual(expect.arrayContaining(['RU', 'IL', 'TR', 'KZ', 'XK']));
    expect(membersOf('EMRO')).toEqual(expect.arrayContaining(['EG', 'MA', 'SD', 'SO', 'PK']));
    expect(membersOf('AFRO')).toEqual(expect.arrayContaining(['DZ', 'RE', 'YT']));
    expect(membersOf('SEARO')).toEqual(expect.arrayContaining(['ID', 'TL', 'KP']));
    expect(membersOf('WPRO')).toEqual(expect.arrayContaining(['CN', 'KR', 'AU']));
    const placed = who.flatMap((r) => r.members.map((m) => m.iso2));
    expect(new Set(placed).size).toBe(placed.length);
    for (const iso2 of ['HK', 'MO', 'TW']) expect(placed).not.toContain(iso2);
  });
});
