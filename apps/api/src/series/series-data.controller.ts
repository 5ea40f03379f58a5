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
  ApiCommonErrors,
  ApiNotFound,
  ApiTokenErrors,
  CreatedAck,
  ErrorResponse,
  WriteAck,
} from '../common/api-responses';
import { IdParamDto } from '../common/id-param.dto';
import { JSON_TYPE } from '../common/json-content-type';
import { CountryStatsResponse, CountrySummaryResponse, RecordResponse } from './series.responses';

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
    @ApiOkResponse({ type: [RecordResponse] })
    @ApiBadRequest()
    async list(@Query() query: ListQueryDto): Promise<string | StreamableFile> {
      const body = await this.series.list(query);
      if (body.kind === 'text') return body.json;
      return new StreamableFile(Readable.from(body.chunks), { type: JSON_TYPE });
    }

    @Post('data')
    @HttpCode(201)
    @ApiOperation({ summary: `Create a ${definition.label} record` })
    @ApiResponse({
      status: 201,
      type: CreatedAck,
      example: { success: true, message: MESSAGES.created, id: 1234 },
    })
    @ApiBadRequest()
    @ApiResponse({ status: 409, type: ErrorResponse, example: { error: MESSAGES.duplicateRecord } })
    @ApiResponse({ status: 413, type: ErrorResponse, example: { error: MESSAGES.payloadTooLarge } })
    async create(@Body() body: RecordBodyDto): Promise<CreatedAck> {
      const id = await this.series.create(body);
      return { success: true, message: MESSAGES.created, id };
    }

    @Put('data/:id')
    @ApiOperation({ summary: `Replace a ${definition.label} record` })
    @ApiOkResponse({ type: WriteAck, example: { success: true, message: MESSAGES.updated } })
    @ApiBadRequest()
    @ApiNotFound(MESSAGES.recordNotFound)
    @ApiResponse({ status: 409, type: ErrorResponse, example: { error: MESSAGES.duplicateRecord } })
    async update(@Param() { id }: IdParamDto, @Body() body: RecordBodyDto): Promise<WriteAck> {
      await this.series.update(id, body);
      return { success: true, message: MESSAGES.updated };
    }

    @Delete('data/:id')
    @ApiOperation({ summary: `Delete a ${definition.label} record` })
    @ApiOkResponse({ type: WriteAck, example: { success: true, message: MESSAGES.deleted } })
    @ApiBadRequest()
    @ApiNotFound(MESSAGES.recordNotFound)
    async remove(@Param() { id }: IdParamDto): Promise<WriteAck> {
      await this.series.remove(id);
      return { success: true, message: MESSAGES.deleted };
    }

    @Get('countries')
    @ApiOperation({ summary: `Countries with ${definition.label} records, by name` })
    @ApiOkResponse({ type: [CountrySummaryResponse] })
    countries(): Promise<CountrySummaryResponse[]> {
      return this.series.countries();
    }

    @Get('stats')
    @ApiOperation({ summary: `${definition.label} statistics of one country` })
    @ApiOkResponse({ type: CountryStatsResponse })
    @ApiBadRequest('Missing or invalid `country`')
    @ApiNotFound(MESSAGES.countryNotFound)
    stats(@Query() { country }: StatsQueryDto): Promise<CountryStatsResponse> {
      return this.series.stats(country);
    }
  }
  return DataController;
}
