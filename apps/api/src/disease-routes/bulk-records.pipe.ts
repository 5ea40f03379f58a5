import { ArgumentMetadata, HttpStatus, Injectable, PipeTransform } from '@nestjs/common';
import {
  ApiError,
  BODY_PROBLEMS,
  ErrorBody,
  MESSAGES,
  RECORD_NOT_AN_OBJECT,
  moreProblems,
  recordLine,
} from '@app/common';
import { MAX_BULK_RECORDS } from '@app/diseases';
import { BodyValidationPipe } from '../common/body-validation.pipe';
import { RecordBodyDto } from './dto/record-body.dto';

/** At most this many problem lines in a 400 answer (then one line says how many more). */
export const MAX_DETAIL_LINES = 100;

/** Each record is a POST body. */
const RECORD: ArgumentMetadata = { type: 'body', metatype: RecordBodyDto };

/**
 * The body of a bulk write: a JSON array of at most `MAX_BULK_RECORDS` records, each validated
 * with exactly the rules of a POST body (the same pipe). Every problem is reported as
 * `[index] field : problem`; one bad record refuses the whole batch.
 */
@Injectable()
export class BulkRecordsPipe implements PipeTransform {
  private readonly recordPipe = new BodyValidationPipe();

  async transform(value: unknown): Promise<RecordBodyDto[]> {
    if (!Array.isArray(value)) {
      throw ApiError.badRequest(MESSAGES.invalidBody, [BODY_PROBLEMS.notARecordArray]);
    }
    if (value.length > MAX_BULK_RECORDS) {
      throw new ApiError(HttpStatus.PAYLOAD_TOO_LARGE, MESSAGES.bulkTooLarge);
    }
    const records: RecordBodyDto[] = [];
    const problems: string[] = [];
    for (const [index, item] of (value as unknown[]).entries()) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        problems.push(recordLine(index, RECORD_NOT_AN_OBJECT));
        continue;
      }
      try {
        records.push((await this.recordPipe.transform(item, RECORD)) as RecordBodyDto);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        const details = (error.getResponse() as ErrorBody).details ?? [];
        problems.push(...details.map((line) => recordLine(index, line)));
      }
    }
    if (problems.length > 0) {
      const shown = problems.slice(0, MAX_DETAIL_LINES);
      if (problems.length > shown.length) {
        shown.push(moreProblems(problems.length - shown.length));
      }
      throw ApiError.badRequest(MESSAGES.invalidBody, shown);
    }
    return records;
  }
}
