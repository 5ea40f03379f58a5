import {
  Body,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Req,
  Res,
  StreamableFile,
  Type,
} from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { FastifyReply, FastifyRequest } from 'fastify';
import { InjectDisease, MESSAGES, todayUtc } from '@app/common';
import {
  CachedValue,
  ListFormat,
  MAX_BULK_RECORDS,
  ChangeOrigin,
  RecordRevision,
  DiseaseDefinition,
  StoredRecord,
  RecordsService,
  RevisionsService,
} from '@app/diseases';
import {
  ApiBadRequest,
  ApiBodyErrors,
  BulkAck,
  ApiConflict,
  ApiNotFound,
  CreatedAck,
  ErrorResponse,
  WriteAck,
  errorExamples,
  retryAfterHeader,
} from '../common/api-responses';
import { IdParamDto } from '../common/id-param.dto';
import { HttpCache } from '../http-cache/http-cache.decorator';
import { RequireScope } from '../auth/require-scope.decorator';
import { WriteOrigin } from '../auth/write-origin.decorator';
import { BulkRecordsPipe } from './bulk-records.pipe';
import { AsOfQueryDto } from './dto/as-of-query.dto';
import { ListQueryDto } from './dto/list-query.dto';
import { RecordBodyDto } from './dto/record-body.dto';
import { ListFormatParam } from '../list-routes/list-route.decorator';
import { listReply } from '../list-routes/list-reply';
import { DiseaseListRoute } from './disease-list-route.decorator';
import { RecordResponse, RevisionResponse } from './records.responses';

/**
 * The records of one disease, under the `<key>/data` prefix its controller declares
 * (`CovidDataController`, `MpoxDataController`): COVID and MPOX share these handlers and differ by
 * their definition (scopes, summaries). The prefix and the class-level decorators are the
 * concrete controller's: a route's path is found where its controller is.
 */
export function DiseaseDataController(definition: DiseaseDefinition): Type<object> {
  class DataController {
    constructor(
      @InjectDisease(RecordsService, definition.key) private readonly records: RecordsService,
      @InjectDisease(RevisionsService, definition.key) private readonly revisions: RevisionsService,
    ) {}

    @DiseaseListRoute({
      scope: `${definition.key}:read`,
      cache: 'memory',
      summary: `List ${definition.label} records`,
      description:
        '`date` descending then `id` descending, as JSON, CSV or NDJSON. Large results are ' +
        'streamed. A page followed by others carries `Link: <…>; rel="next"` (its `after` cursor).',
      ok: { description: 'The records', type: [RecordResponse] },
      badRequest: {
        description: 'Malformed query parameter',
        details: ['limit : doit être un entier strictement positif'],
      },
    })
    async list(
      @Query() query: ListQueryDto,
      @ListFormatParam() format: ListFormat,
      @Req() request: FastifyRequest,
      @Res({ passthrough: true }) reply: FastifyReply,
    ): Promise<CachedValue<string> | string | StreamableFile> {
      const body = await this.records.list(query, format);
      return listReply(body, format, request, reply, {
        query: { ...query },
        filename: `${definition.key}-${todayUtc()}`,
      });
    }

    @Get(':id')
    @RequireScope(`${definition.key}:read`)
    @HttpCache('private')
    @ApiOperation({
      summary: `One ${definition.label} record`,
      description:
        'The record as the list gives it. With `as_of`, as it stood then (404 if it did not ' +
        'exist then, deleted or not yet created).',
    })
    @ApiOkResponse({ description: 'The record', type: RecordResponse })
    @ApiBadRequest('Invalid `id` (a positive integer) or `as_of`', {
      error: MESSAGES.invalidParam,
      details: ['id : doit être un entier strictement positif'],
    })
    @ApiNotFound(MESSAGES.recordNotFound)
    record(@Param() { id }: IdParamDto, @Query() { as_of }: AsOfQueryDto): Promise<StoredRecord> {
      return this.records.record(id, as_of);
    }

    @Post()
    @RequireScope(`${definition.key}:write`)
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
    async create(
      @Body() body: RecordBodyDto,
      @WriteOrigin() origin: ChangeOrigin,
    ): Promise<CreatedAck> {
      const id = await this.records.create(body, origin);
      return { success: true, message: MESSAGES.created, id };
    }

    @Post('bulk')
    @RequireScope(`${definition.key}:write`)
    @HttpCode(200)
    @ApiOperation({
      summary: `Insert or update up to ${MAX_BULK_RECORDS} ${definition.label} records at once`,
      description:
        'Records are matched by country (ignoring case and surrounding blanks) and date: new ones ' +
        'are inserted, existing ones replaced, all in one transaction. One invalid record refuses ' +
        'the whole batch (400, `details` lines start with the record index) and nothing is written. ' +
        'Answers 200 (not 201: the batch may create nothing), with the counts.',
    })
    @ApiBody({
      schema: {
        type: 'array',
        items: { $ref: getSchemaPath(RecordBodyDto) },
        maxItems: MAX_BULK_RECORDS,
      },
    })
    @ApiOkResponse({
      description: 'Written: how many records were inserted and how many replaced',
      type: BulkAck,
      example: { success: true, inserted: 2, updated: 1 },
    })
    @ApiBadRequest('Invalid records; `details`: `[index] field : problem`', {
      error: MESSAGES.invalidBody,
      details: ['[1] zz : champ inconnu', "[1] date : 2023-02-30 n'est pas une date du calendrier"],
    })
    @ApiResponse({
      status: 413,
      description: `More than ${MAX_BULK_RECORDS} records, or a body larger than BODY_LIMIT`,
      type: ErrorResponse,
      example: { error: MESSAGES.bulkTooLarge },
    })
    @ApiResponse({
      status: 415,
      description: 'Body that is not JSON (Content-Type other than application/json)',
      type: ErrorResponse,
      example: { error: MESSAGES.unsupportedMediaType },
    })
    @ApiResponse({
      status: 503,
      description:
        'Database unreachable, or (MySQL) other writers kept creating or deleting the same records ' +
        'while the batch was written: nothing written, the same request may be sent again',
      type: ErrorResponse,
      examples: errorExamples({
        unavailable: ['Database unreachable', MESSAGES.databaseUnavailable],
        raceLost: ['Gave up against other writers, with Retry-After', MESSAGES.writeRaceLost],
      }),
      headers: retryAfterHeader(
        'Seconds to wait before sending the batch again (when it gave up)',
        1,
      ),
    })
    async bulk(
      @Body(BulkRecordsPipe) records: RecordBodyDto[],
      @WriteOrigin() origin: ChangeOrigin,
    ): Promise<BulkAck> {
      const counts = await this.records.upsertMany(records, origin);
      return { success: true, ...counts };
    }

    @Put(':id')
    @RequireScope(`${definition.key}:write`)
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
    async update(
      @Param() { id }: IdParamDto,
      @Body() body: RecordBodyDto,
      @WriteOrigin() origin: ChangeOrigin,
    ): Promise<WriteAck> {
      await this.records.update(id, body, origin);
      return { success: true, message: MESSAGES.updated };
    }

    @Delete(':id')
    @RequireScope(`${definition.key}:write`)
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
    async remove(
      @Param() { id }: IdParamDto,
      @WriteOrigin() origin: ChangeOrigin,
    ): Promise<WriteAck> {
      await this.records.remove(id, origin);
      return { success: true, message: MESSAGES.deleted };
    }

    @Get(':id/history')
    @RequireScope(`${definition.key}:read`)
    @HttpCache('private')
    @ApiOperation({
      summary: `The history of a ${definition.label} record`,
      description:
        'Every change made to the record, oldest first: when, by whom, and the record after it ' +
        '(null once deleted). Records that existed when the history began have one baseline ' +
        'revision (`migration:baseline`).',
    })
    @ApiOkResponse({ description: 'The revisions', type: [RevisionResponse] })
    @ApiBadRequest('Invalid `id` (a positive integer)', {
      error: MESSAGES.invalidParam,
      details: ['id : doit être un entier strictement positif'],
    })
    @ApiNotFound(MESSAGES.recordNotFound)
    history(@Param() { id }: IdParamDto): Promise<RecordRevision[]> {
      return this.revisions.history(id);
    }
  }
  return DataController;
}
