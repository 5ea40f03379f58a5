import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { allRegions } from '@app/countries';
import { Public } from '../auth/public.decorator';
import { ApiCommonErrors } from '../common/api-responses';
import { HttpCache } from '../http-cache/http-cache.decorator';
import { RegionResponse } from './population-regions.responses';

/** The regions' membership never changes while the process runs: worked out once. */
const REGIONS: RegionResponse[] = allRegions().map((region) => ({
  name: region.name,
  code: region.code,
  grouping: region.grouping,
  aliases: region.aliases,
  source: region.source,
  deviations: region.deviations,
  countries: region.members.map(({ name, iso2, iso3 }) => ({ country: name, iso2, iso3 })),
}));

/** `GET /regions` (public): the regions `/series` accepts and their member countries. */
@Public()
@ApiTags('Population and regions (public)')
@ApiCommonErrors()
@Controller('regions')
export class RegionsController {
  @Get()
  @HttpCache('public')
  @ApiOperation({
    summary:
      "Every region `/series` accepts: World, OWID's six continents, the European Union, WHO's " +
      'six regions, each with its code, members, source and deviations',
    description:
      "A region's `/series` figures are the sums of its members' (docs/derived-figures.md). `/series` " +
      'takes its name, code or an alias, case ignored; an unknown one is a 400 naming `country`.',
  })
  @ApiOkResponse({
    description: "World, the continents by name, the European Union, WHO's regions by code",
    type: [RegionResponse],
  })
  list(): RegionResponse[] {
    return REGIONS;
  }
}
