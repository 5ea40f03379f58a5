import {
  ACTOR_MAX_LENGTH,
  boundedActor,
  importActor,
  sourceName,
  withSourceNames,
} from './source-name';
import { describeError } from './describe-error';

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
    ['ftp://admin:hunter2@ftp.example/pub/pop.csv?token=T#x', 'ftp://ftp.example/pub/pop.csv'],
    ['s3://bucket/key/pop.csv?X-Amz-Signature=abc&X-Amz-Credential=k', 's3://bucket/key/pop.csv'],
    ['SFTP://u:p@Host:2222/f.csv', 'sftp://Host:2222/f.csv'],
  ])('%s -> %s', (source, name) => {
    expect(sourceName(source)).toBe(name);
  });

  it('says less of what looks like a URL but is none', () => {
    expect(sourceName('https://us er:pw@bad host/f.csv?sig=1')).toBe('https://bad host/f.csv');
    // A password holding a "/" or "#": all of it up to the last "@" goes.
    expect(sourceName('https://admin:pa/ss@host.example/f.csv')).toBe('https://host.example/f.csv');
    expect(sourceName('ftp://admin:p#ss@host.example/f.csv')).toBe('ftp://host.example/f.csv');
  });
});

describe('importActor', () => {
  it('names the source by its name only', () => {
    expect(importActor('import', 'https://u:p@h.example/f.csv?sig=S')).toBe(
      'import:https://h.example/f.csv',
    );
    expect(importActor('sync', '/tmp/x/y.csv')).toBe('sync:y.csv');
    expect(importActor('sync', 's3://u:p@bucket/k.csv?X-Amz-Signature=S')).toBe(
      'sync:s3://bucket/k.csv',
    );
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

describe('withSourceNames', () => {
  const signed = `https://user:pass@h.example/data/f.csv?X-Amz-Signature=${'a'.repeat(400)}`;

  it('names a known source however spelled, and every other URL or absolute path', () => {
    expect(
      withSourceNames(`cannot download ${signed}: HTTP 404; also see s3://u:p@b/k?sig=S.`, [
        signed,
      ]),
    ).toBe('cannot download https://h.example/data/f.csv: HTTP 404; also see s3://b/k.');
    expect(
      withSourceNames('/tmp/dl-1/source: line 3 bad', [{ text: '/tmp/dl-1/source', name: 'n' }]),
    ).toBe('n: line 3 bad');
    expect(withSourceNames('reading /srv/imports/x/covid.csv failed (C:\\data\\p.csv)')).toBe(
      'reading covid.csv failed (p.csv)',
    );
    expect(withSourceNames('file:///srv/a/b%20c.csv', ['file:///srv/a/b%20c.csv'])).toBe('b c.csv');
    expect(withSourceNames('open /srv/a/b c.csv', ['file:///srv/a/b%20c.csv'])).toBe(
      'open b c.csv',
    );
  });

  it('leaves words that are no path alone', () => {
    expect(withSourceNames('UN (2022); Gapminder/HYDE 1950/2100, and/or cases / population')).toBe(
      'UN (2022); Gapminder/HYDE 1950/2100, and/or cases / population',
    );
    expect(withSourceNames('see https://h.example/a/b.csv.')).toBe(
      'see https://h.example/a/b.csv.',
    );
  });

  it('describeError cleans before it cuts, whatever the length', () => {
    const message = describeError(new Error(`cannot download ${signed}: refused`), [signed]);
    expect(message).toBe('cannot download https://h.example/data/f.csv: refused');
    const cut = describeError(new Error(`${'x'.repeat(250)} ${signed}`), []);
    expect(cut).not.toMatch(/user|pass|Signature/);
  });
});
