import {
  Body,
  Controller,
  Delete,
  Get,
  Header,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  StreamableFile,
  Type,
} from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Readable } from 'node:stream';
import { MESSAGES } from '@app/common';
import {
  InjectSeries,
  ListQueryDto,
  RecordBodyDto,
  SeriesDefinition,
  SeriesService,
  StatsQueryDto,
} from '@app/series';
import {
  ApiBadRequest,
  ApiBodyErrors,
  ApiCommonErrors,
  ApiConflict,
  ApiNotFound,
  ApiTokenErrors,
  CreatedAck,
  WriteAck,
} from '../common/api-responses';
import { IdParamDto } from '../common/id-param.dto';
import { CountryStatsResponse, CountrySummaryResponse, RecordResponse } from './series.responses';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The token-protected routes of one disease, `/<key>/data`, `/<key>/countries`, `/<key>/stats`:
 * COVID and MPOX share this one implementation and differ only by their definition.
 */
export function SeriesDataController(definition: SeriesDefinition): Type<object> {
  @ApiTags(definition.label)
  @ApiBearerAuth()
  @ApiTokenErrors()
  @ApiCommonErrors()
  @Controller(definition.key)
  class DataController {
    constructor(@InjectSeries(definition.key) readonly series: SeriesService) {}

    @Get('data')
    @Header('Content-Type', JSON_TYPE)
    @ApiOperation({
      summary: `List ${definition.label} records`,
      description: '`date` descending then `id` descending. Large results are streamed.',
    })
    @ApiOkResponse({ description: 'The records', type: [RecordResponse] })
    @ApiBadRequest('Malformed query parameter', {
      error: MESSAGES.invalidQuery,
      details: ['limit : doit être un entier strictement positif'],
    })
    async list(@Query() query: ListQueryDto): Promise<string | StreamableFile> {
      const body = await this.series.list(query);
      if (body.kind === 'text') return body.json;
      return new StreamableFile(Readable.from(body.chunks), { type: JSON_TYPE });
    }

    @Post('data')
    @HttpCode(201)
    @ApiOperation({
      summary: `Create a ${definition.label} record`,
      description: 'One record per country and date (case and surrounding blanks ignored).',
    })
    @ApiResponse({
      status: 201,
      description: 'Created',
      type: CreatedAck,
      example: { success: true, message: MESSAGES.created, id: 1234 },
    })
    @ApiBadRequest()
    @ApiConflict()
    @ApiBodyErrors()
    async create(@Body() body: RecordBodyDto): Promise<CreatedAck> {
      const id = await this.series.create(body);
      return { success: true, message: MESSAGES.created, id };
    }

    @Put('data/:id')
    @ApiOperation({
      summary: `Replace a ${definition.label} record`,
      description: 'A full replacement: every field of the body is required.',
    })
    @ApiOkResponse({
      description: 'Updated',
      type: WriteAck,
      example: { success: true, message: MESSAGES.updated },
    })
    @ApiBadRequest()
    @ApiNotFound(MESSAGES.recordNotFound)
    @ApiConflict()
    @ApiBodyErrors()
    async update(@Param() { id }: IdParamDto, @Body() body: RecordBodyDto): Promise<WriteAck> {
      await this.series.update(id, body);
      return { success: true, message: MESSAGES.updated };
    }

    @Delete('data/:id')
    @ApiOperation({ summary: `Delete a ${definition.label} record` })
    @ApiOkResponse({
      description: 'Deleted',
      type: WriteAck,
      example: { success: true, message: MESSAGES.deleted },
    })
    @ApiBadRequest('Invalid `id` (a positive integer)', {
      error: MESSAGES.invalidParam,
      details: ['id : doit être un entier strictement positif'],
    })
    @ApiNotFound(MESSAGES.recordNotFound)
    async remove(@Param() { id }: IdParamDto): Promise<WriteAck> {
      await this.series.remove(id);
      return { success: true, message: MESSAGES.deleted };
    }

    @Get('countries')
    @ApiOperation({ summary: `Countries with ${definition.label} records, by name` })
    @ApiOkResponse({ description: 'One entry per country', type: [CountrySummaryResponse] })
    countries(): Promise<CountrySummaryResponse[]> {
      return this.series.countries();
    }

    @Get('stats')
    @ApiOperation({ summary: `${definition.label} statistics of one country` })
    @ApiOkResponse({ description: 'The statistics', type: CountryStatsResponse })
    @ApiBadRequest('Missing or invalid `country`', {
      error: MESSAGES.invalidQuery,
      details: ['country : champ obligatoire'],
    })
    @ApiNotFound(MESSAGES.countryNotFound)
    stats(@Query() { country }: StatsQueryDto): Promise<CountryStatsResponse> {
      return this.series.stats(country);
    }
  }
  return DataController;
}
