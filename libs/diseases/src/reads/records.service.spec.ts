import { ApiError, MESSAGES } from '@app/common';
import {
  DatabaseDeadlineError,
  COVID_DISEASE,
  RecordWritesRepository,
  RecordReadsRepository,
  BulkLoadRepository,
} from '@app/database';
import { RecordReverter } from '../writes/record-reverter';
import { ReadCache } from '../read-cache';
import { RecordWriter } from '../writes/record-writer.service';
import { RevisionsService } from '../history/revisions.service';
import { CountriesService } from './countries.service';
import { RecordsService } from './records.service';

/**
 * When a write through RecordsService (and its RecordWriter) drops the cached reads, as an API
 * instance's notice does (`RecordChangeService`). The repositories are stubs: these
 * outcomes (a write that runs out of time and commits later, a record deleted between two
 * queries) cannot be produced on purpose through a real database.
 */
describe('RecordsService writes and the read cache', () => {
  const body = {
    date: '2021-01-01',
    country: 'Chile',
    total_cases: 1,
    new_cases: 1,
    total_deaths: 0,
    new_deaths: 0,
  };
  const origin = { actor: 'alice', requestId: 'req-1' };

  function serviceWith(
    repository: Partial<Pick<RecordReadsRepository, 'countries' | 'between'>> &
      Partial<Pick<RecordWritesRepository, 'insert' | 'delete'>>,
  ) {
    const cache = new ReadCache(3_600_000);
    let announced = 0;
    const notice = {
      written: () => {
        cache.invalidate();
        announced++;
      },
    };
    const writer = new RecordWriter(
      COVID_DISEASE,
      repository as unknown as RecordWritesRepository,
      {} as BulkLoadRepository,
      {} as RecordReverter,
      notice,
    );
    const reads = repository as unknown as RecordReadsRepository;
    const service = new RecordsService(COVID_DISEASE, reads, writer, {} as RevisionsService, cache);
    const places = new CountriesService(reads, cache);
    let loads = 0;
    /** Reads through the cache: the count goes up only when the cache was dropped. */
    const read = () => cache.get('k', () => Promise.resolve(++loads));
    return { service, places, read, announced: () => announced };
  }

  it('drops the cache once a write succeeded', async () => {
    const { service, read, announced } = serviceWith({ insert: () => Promise.resolve(7) });
    expect(await read()).toBe(1);
    expect(await service.create(body, origin)).toBe(7);
    expect(await read()).toBe(2);
    expect(announced()).toBe(1);
  });

  it('keeps it when the write was refused (409, 404): nothing changed', async () => {
    const duplicate = Object.assign(new Error('dup'), { code: 'SQLITE_CONSTRAINT_UNIQUE' });
    const { service, read, announced } = serviceWith({
      insert: () => Promise.reject(duplicate),
      delete: () => Promise.resolve(false),
    });
    expect(await read()).toBe(1);
    await expect(service.create(body, origin)).rejects.toEqual(
      ApiError.conflict(MESSAGES.duplicateRecord),
    );
    await expect(service.remove(1, origin)).rejects.toEqual(
      ApiError.notFound(MESSAGES.recordNotFound),
    );
    expect(await read()).toBe(1);
    expect(announced()).toBe(0);
  });

  it('drops it when the database failed, and again when a write that ran out of time ends', async () => {
    let commit!: () => void;
    const late = new Promise<void>((resolve) => (commit = resolve));
    const { service, read, announced } = serviceWith({
      insert: () => Promise.reject(new DatabaseDeadlineError(10, late)),
    });
    await expect(service.create(body, origin)).rejects.toBeInstanceOf(DatabaseDeadlineError);
    expect(announced()).toBe(1);
    // A read made meanwhile caches what the database holds before the late commit...
    expect(await read()).toBe(1);
    commit();
    await late;
    await new Promise((resolve) => setImmediate(resolve));
    // ...and is dropped once the write has ended (it may have committed).
    expect(await read()).toBe(2);
    expect(announced()).toBe(2);
  });

  it('answers 404 for the statistics of a country whose last record vanished meanwhile', async () => {
    const { places } = serviceWith({
      countries: () =>
        Promise.resolve([
          { country: 'Chile', records: 1, first_date: '2021-01-01', last_date: '2021-01-01' },
        ]),
      between: () => Promise.resolve([]),
    });
    await expect(places.stats('Chile')).rejects.toEqual(
      ApiError.notFound(MESSAGES.countryNotFound),
    );
  });
});
