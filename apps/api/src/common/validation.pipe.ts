import {
  ArgumentMetadata,
  Injectable,
  ValidationPipe as NestValidationPipe,
  PipeTransform,
} from '@nestjs/common';
import { ApiError, ErrorBody, MESSAGES } from '@app/common';
import { InputMemo } from '../route-metadata/input-memo';
import { BodyValidationPipe } from './body-validation.pipe';
import { fieldProblems, wording } from './validation-problems';

type Dto = new () => object;

const PRIMITIVES = new Set<unknown>([String, Boolean, Number, Array, Object]);

/** Query strings and path parameters validated and remembered, at most (then forgotten at once). */
const MAX_REMEMBERED = 1000;

/** A validated query or path: the (frozen) DTO, or the 400's body to answer with. */
type Outcome = { instance: object } | { refusal: ErrorBody };

/**
 * Nest's own pipe for query strings and path parameters: extra parameters (cache busters) are
 * dropped (`whitelist`), the problems answered with `title`.
 */
function nestPipe(title: string): NestValidationPipe {
  return new NestValidationPipe({
    transform: true,
    whitelist: true,
    exceptionFactory: (errors) => ApiError.badRequest(title, wording(fieldProblems(errors))),
  });
}

/**
 * Validates bodies, queries and path parameters against their DTO, each through Nest's
 * `ValidationPipe`: bodies with their shape checked first (`BodyValidationPipe`), queries and path
 * parameters with their outcomes remembered. Problems are gathered as data (`FieldProblem`) and
 * worded by the one catalogue (`problemMessage`).
 */
@Injectable()
export class ValidationPipe implements PipeTransform {
  private readonly bodies = new BodyValidationPipe();
  private readonly queries = nestPipe(MESSAGES.invalidQuery);
  private readonly params = nestPipe(MESSAGES.invalidParam);
  /**
   * Outcomes for query strings and path parameters, by DTO and input. Their validators are pure
   * (no clock, no state): the same input always gets the same answer, and partners poll the same
   * few URLs. Bodies, whose dates are checked against today, are validated every time. Kept because
   * class-validator is a visible share of a request's CPU on routes through Nest's router
   * (`bench:compare`, docs/performance.md).
   */
  private readonly outcomes = new InputMemo<Outcome>(MAX_REMEMBERED);

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const { metatype, type } = metadata;
    if (!metatype || PRIMITIVES.has(metatype) || type === 'custom') return value;
    const dto = metatype as Dto;
    if (type === 'body') return this.bodies.transform(value, metadata);
    const key = `${type}:${JSON.stringify(value ?? null)}`;
    const outcome = this.outcomes.get(dto, key);
    if (outcome) return answer(outcome);
    const pipe = type === 'query' ? this.queries : this.params;
    return pipe.transform(value, metadata).then(
      (instance: object) => {
        this.outcomes.set(dto, key, { instance: Object.freeze(instance) });
        return instance;
      },
      (error: unknown) => {
        if (error instanceof ApiError) {
          this.outcomes.set(dto, key, { refusal: error.getResponse() as ErrorBody });
        }
        throw error;
      },
    );
  }
}

function answer(outcome: Outcome): object {
  if ('instance' in outcome) return outcome.instance;
  throw ApiError.badRequest(outcome.refusal.error, outcome.refusal.details ?? []);
}
