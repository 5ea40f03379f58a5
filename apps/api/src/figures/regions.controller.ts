import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { REGION_SOURCE, allRegions } from '@app/countries';
import { Public } from '../auth/public.decorator';
import { ApiCommonErrors } from '../common/api-responses';
import { HttpCache } from '../http-cache/http-cache.decorator';
import { RegionResponse } from '../series/figures.responses';

/** The regions' membership never changes while the process runs: worked out once. */
const REGIONS: RegionResponse[] = allRegions().map((region) => ({
  name: region.name,
  source: REGION_SOURCE,
  countries: region.members.map(({ name, iso2, iso3 }) => ({ country: name, iso2, iso3 })),
}));

/** `GET /regions` (public): the regions `/series` accepts and their member countries. */
@Public()
@ApiTags('Figures (public)')
@ApiCommonErrors()
@Controller('regions')
export class RegionsController {
  @Get()
  @HttpCache('public')
  @ApiOperation({
    summary: 'World and the six continents, each with its member countries',
    description:
      "A region's `/series` figures are the sums of its members' (docs/figures.md says where " +
      "this membership differs from Our World in Data's).",
  })
  @ApiOkResponse({ description: 'World first, then the continents', type: [RegionResponse] })
  list(): RegionResponse[] {
    return REGIONS;
  }
}
