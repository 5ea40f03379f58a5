import {
  ArgumentMetadata,
  Injectable,
  ValidationPipe as NestValidationPipe,
  PipeTransform,
} from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { ValidationError, getMetadataStorage, validateSync } from 'class-validator';
import {
  ApiError,
  BODY_PROBLEMS,
  ErrorBody,
  FieldProblem,
  MESSAGES,
  problemMessage,
} from '@app/common';
import { failedRules } from '@app/series';

type Dto = new () => object;

const PRIMITIVES = new Set<unknown>([String, Boolean, Number, Array, Object]);

/** Query strings and path parameters validated and remembered, at most (then forgotten at once). */
const MAX_REMEMBERED = 1000;

/** The properties a DTO declares (anything else is an unknown field). */
function declaredProperties(metatype: Dto): Set<string> {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false);
  return new Set(metadata.map((m) => m.propertyName));
}

/** A validated query or path: the (frozen) DTO, or the 400's body to answer with. */
type Outcome = { instance: object } | { refusal: ErrorBody };

/** A field without a value is required; otherwise the rules it failed, as data. */
function fieldProblems(errors: ValidationError[], input?: Record<string, unknown>): FieldProblem[] {
  return errors.flatMap((error) =>
    (input ? input[error.property] : error.value) === undefined
      ? [{ field: error.property, problem: 'required' as const }]
      : failedRules(error),
  );
}

/** Problems worded by the one catalogue; unknown fields cut to 100 characters may read the same. */
function wording(problems: FieldProblem[]): string[] {
  return [...new Set(problems.map(problemMessage))];
}

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
 * Validates bodies, queries and path parameters against their DTO with class-validator.
 * Queries and path parameters go through Nest's `ValidationPipe`. Bodies must be JSON objects
 * whose fields the DTO declares (an unknown field is named and refused, `__proto__` included,
 * which Nest's pipe would drop silently) and hold plain values, checked here at once (the bulk
 * pipe validates each record of an array with it). Strings are never coerced into numbers in
 * bodies. Problems are gathered as data (`FieldProblem`) and worded by the one catalogue
 * (`problemMessage`).
 */
@Injectable()
export class ValidationPipe implements PipeTransform {
  private readonly declared = new Map<Dto, Set<string>>();
  private readonly queries = nestPipe(MESSAGES.invalidQuery);
  private readonly params = nestPipe(MESSAGES.invalidParam);
  /**
   * Outcomes for query strings and path parameters, by DTO and input. Their validators are pure
   * (no clock, no state): the same input always gets the same answer, and partners poll the same
   * few URLs. Bodies, whose dates are checked against today, are validated every time. Kept because
   * class-validator is a visible share of a request's CPU on routes through Nest's router
   * (`bench:compare --api-env CACHE_TTL_MS=0`).
   */
  private readonly remembered = new Map<Dto, Map<string, Outcome>>();

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const { metatype, type } = metadata;
    if (!metatype || PRIMITIVES.has(metatype) || type === 'custom') return value;
    const dto = metatype as Dto;
    if (type === 'body') return this.validateBody(dto, value);
    let outcomes = this.remembered.get(dto);
    if (!outcomes) {
      outcomes = new Map();
      this.remembered.set(dto, outcomes);
    }
    const key = `${type}:${JSON.stringify(value ?? null)}`;
    const outcome = outcomes.get(key);
    if (outcome) return answer(outcome);
    const pipe = type === 'query' ? this.queries : this.params;
    return pipe.transform(value, metadata).then(
      (instance: object) => {
        remember(outcomes, key, { instance: Object.freeze(instance) });
        return instance;
      },
      (error: unknown) => {
        if (error instanceof ApiError) {
          remember(outcomes, key, { refusal: error.getResponse() as ErrorBody });
        }
        throw error;
      },
    );
  }

  private validateBody(dto: Dto, value: unknown): object {
    const title = MESSAGES.invalidBody;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw ApiError.badRequest(title, [BODY_PROBLEMS.notAnObject]);
    }
    let declared = this.declared.get(dto);
    if (!declared) {
      declared = declaredProperties(dto);
      this.declared.set(dto, declared);
    }
    const input: Record<string, unknown> = {};
    const problems: FieldProblem[] = [];
    const notPlain = new Set<string>();
    for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
      if (!declared.has(key)) {
        // Named in the answer, but no more than its first 100 characters.
        problems.push({ field: key.slice(0, 100), problem: 'unknown' });
        continue;
      }
      if (typeof field === 'object' && field !== null) {
        // Only plain values are expected; refusing here also keeps deep JSON out of the transformer.
        problems.push({ field: key, problem: 'not-plain' });
        notPlain.add(key);
        continue;
      }
      input[key] = field;
    }
    const instance = plainToInstance(dto, input);
    const errors = validateSync(instance, { forbidUnknownValues: false });
    // A field refused above is missing from the input: it is not reported a second time.
    problems.push(
      ...fieldProblems(
        errors.filter((e) => !notPlain.has(e.property)),
        input,
      ),
    );
    if (problems.length) throw ApiError.badRequest(title, wording(problems));
    return instance;
  }
}

/** Bounded: past `MAX_REMEMBERED` inputs of one DTO, forgotten at once. */
function remember(outcomes: Map<string, Outcome>, key: string, outcome: Outcome): void {
  if (outcomes.size >= MAX_REMEMBERED) outcomes.clear();
  outcomes.set(key, outcome);
}

function answer(outcome: Outcome): object {
  if ('instance' in outcome) return outcome.instance;
  throw ApiError.badRequest(outcome.refusal.error, outcome.refusal.details ?? []);
}
