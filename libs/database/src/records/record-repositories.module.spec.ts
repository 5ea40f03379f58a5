import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { diseaseToken } from '@app/common';
import { APP_CONFIG, loadConfig } from '@app/config';
import { RECORD_REPOSITORIES, RecordRepositoriesModule } from './record-repositories.module';
import { BulkLoadRepository } from './bulk/bulk-load.repository';
import { RevisionRepository } from './history/revision.repository';
import { RecordReadsRepository } from './reads/record-reads.repository';
import { RecordWritesRepository } from './writes/record-writes.repository';
import { COVID_DISEASE, MPOX_DISEASE } from './disease.types';

/** What the repositories' factories take from the application: a connection, the settings. */
@Global()
@Module({
  providers: [
    { provide: DataSource, useValue: { options: { type: 'sqlite' }, manager: {} } },
    { provide: APP_CONFIG, useValue: loadConfig({}) },
  ],
  exports: [DataSource, APP_CONFIG],
})
class Connection {}

/** Two features that both use COVID's repositories, as the importer and the CLI do. */
@Module({ imports: [RecordRepositoriesModule.forDisease(COVID_DISEASE)] })
class Imports {}
@Module({ imports: [RecordRepositoriesModule.forDisease(COVID_DISEASE)] })
class Exports {}

describe('RecordRepositoriesModule', () => {
  async function compile() {
    const app = await Test.createTestingModule({
      imports: [Connection, Imports, Exports, RecordRepositoriesModule.forDisease(MPOX_DISEASE)],
    }).compile();
    return app;
  }

  it('provides each repository once per disease, each built with the others it uses', async () => {
    const app = await compile();
    for (const type of RECORD_REPOSITORIES) {
      const covid: unknown = app.get(diseaseToken(type, 'covid'), { strict: false });
      const mpox: unknown = app.get(diseaseToken(type, 'mpox'), { strict: false });
      expect(covid).toBeInstanceOf(type);
      expect(mpox).toBeInstanceOf(type);
      expect(covid).not.toBe(mpox);
    }
    // The history of a disease: one instance, the one its reads, writes and bulk loads use.
    const revisions = app.get(diseaseToken(RevisionRepository, 'covid'), { strict: false });
    for (const type of [RecordReadsRepository, RecordWritesRepository, BulkLoadRepository]) {
      const repository = app.get<object>(diseaseToken(type, 'covid'), { strict: false });
      expect(Reflect.get(repository, 'revisions')).toBe(revisions);
    }
    await app.close();
  });

  it('is one module per disease and kind, however many features import it', () => {
    const covid = RecordRepositoriesModule.forDisease(COVID_DISEASE);
    expect(RecordRepositoriesModule.forDisease(COVID_DISEASE)).toBe(covid);
    expect(RecordRepositoriesModule.forDisease(COVID_DISEASE, { deadline: true })).not.toBe(covid);
    expect(RecordRepositoriesModule.forDisease(MPOX_DISEASE)).not.toBe(covid);
  });
});
