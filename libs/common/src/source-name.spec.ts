import { ACTOR_MAX_LENGTH, boundedActor, importActor, sourceName } from './source-name';

describe('sourceName', () => {
  it.each([
    ['https://host.example/data/file.csv?sig=SECRET', 'https://host.example/data/file.csv'],
    ['https://user:pass@host.example:8443/f.csv#part', 'https://host.example:8443/f.csv'],
    ['HTTP://Host.Example/a%20b.csv?x=1&y=2', 'http://host.example/a%20b.csv'],
    ['https://host.example', 'https://host.example/'],
    ['/srv/imports/covid.csv.gz', 'covid.csv.gz'],
    ['data/covid.csv', 'covid.csv'],
    ['covid.csv', 'covid.csv'],
    ['C:\\imports\\covid.csv', 'covid.csv'],
    ['file:///srv/imports/my%20covid.csv', 'my covid.csv'],
  ])('%s -> %s', (source, name) => {
    expect(sourceName(source)).toBe(name);
  });

  it('says less of what looks like a URL but is none', () => {
    expect(sourceName('https://us er:pw@bad host/f.csv?sig=1')).toBe('https://bad host/f.csv');
  });
});

describe('importActor', () => {
  it('names the source by its name only', () => {
    expect(importActor('import', 'https://u:p@h.example/f.csv?sig=S')).toBe(
      'import:https://h.example/f.csv',
    );
    expect(importActor('sync', '/tmp/x/y.csv')).toBe('sync:y.csv');
  });

  it('cuts a long name to the column, keeping its start, an ellipsis and a hash', () => {
    const long = `https://h.example/${'a'.repeat(400)}.csv`;
    const actor = importActor('sync', long);
    expect(Array.from(actor)).toHaveLength(ACTOR_MAX_LENGTH);
    expect(actor).toMatch(/^sync:https:\/\/h\.example\/a+…[0-9a-f]{8}$/);
    expect(importActor('sync', `${long}x`)).not.toBe(actor);
    expect(importActor('sync', long)).toBe(actor);
  });

  it('counts characters, never cutting one in two', () => {
    const actor = boundedActor(`import:${'😷'.repeat(300)}`);
    expect(Array.from(actor)).toHaveLength(ACTOR_MAX_LENGTH);
    expect(actor).toMatch(/^import:(😷)+…[0-9a-f]{8}$/u);
    expect(boundedActor('import:short.csv')).toBe('import:short.csv');
  });
});
