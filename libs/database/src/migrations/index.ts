import { CreateSeriesTables1763856000000 } from './1763856000000-create-series-tables';
import { CreateApiTokens1764000000000 } from './1764000000000-create-api-tokens';
import { WidenCountryKey1764200000000 } from './1764200000000-widen-country-key';
import { BigintRecordIds1764300000000 } from './1764300000000-bigint-record-ids';
import { CanonicalCountryNames1764400000000 } from './1764400000000-canonical-country-names';
import { ClientRateBudgets1764500000000 } from './1764500000000-client-rate-budgets';
import { CreateSources1764600000000 } from './1764600000000-create-sources';
import { SourceRowsUnchanged1764700000000 } from './1764700000000-source-rows-unchanged';
import { TokenScopes1764800000000 } from './1764800000000-token-scopes';
import { CreateRevisions1764900000000 } from './1764900000000-create-revisions';
import { RevisionCommits1765000000000 } from './1765000000000-revision-commits';
import { RevisionAsOf1765100000000 } from './1765100000000-revision-as-of';
import { SourceImports1765200000000 } from './1765200000000-source-imports';
import { HistoryHorizons1765300000000 } from './1765300000000-history-horizons';
import { CreatePopulation1765400000000 } from './1765400000000-create-population';
import { OneSpellingPerClient1765410000000 } from './1765410000000-one-spelling-per-client';
import { ImportActorNames1765450000000 } from './1765450000000-import-actor-names';
import { RevisionCorrectionsIndex1765500000000 } from './1765500000000-revision-corrections-index';
import { SourceCorrections1765510000000 } from './1765510000000-source-corrections';
import { KeptCorrections1765600000000 } from './1765600000000-kept-corrections';
import { RegionDays1765610000000 } from './1765610000000-region-days';
import { SourceNamesWithoutSecrets1765640000000 } from './1765640000000-source-names-without-secrets';
import { CountrySummaries1765650000000 } from './1765650000000-country-summaries';

/** Every migration, in order. Listed explicitly so that the built app needs no file globbing. */
export const MIGRATIONS = [
  CreateSeriesTables1763856000000,
  CreateApiTokens1764000000000,
  WidenCountryKey1764200000000,
  BigintRecordIds1764300000000,
  CanonicalCountryNames1764400000000,
  ClientRateBudgets1764500000000,
  CreateSources1764600000000,
  SourceRowsUnchanged1764700000000,
  TokenScopes1764800000000,
  CreateRevisions1764900000000,
  RevisionCommits1765000000000,
  RevisionAsOf1765100000000,
  SourceImports1765200000000,
  HistoryHorizons1765300000000,
  CreatePopulation1765400000000,
  OneSpellingPerClient1765410000000,
  ImportActorNames1765450000000,
  RevisionCorrectionsIndex1765500000000,
  SourceCorrections1765510000000,
  KeptCorrections1765600000000,
  RegionDays1765610000000,
  SourceNamesWithoutSecrets1765640000000,
  CountrySummaries1765650000000,
];
