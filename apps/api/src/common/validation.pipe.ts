import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { ValidationError, getMetadataStorage, validateSync } from 'class-validator';
import { ApiError, BODY_PROBLEMS, FieldProblem, MESSAGES, problemMessage } from '@app/common';
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

/** A validated query or path: the (frozen) DTO, or the title and `details` to answer with. */
type Outcome = { instance: object } | { title: string; details: string[] };

function fieldProblems(errors: ValidationError[], input: Record<string, unknown>): FieldProblem[] {
  return errors.flatMap((error) =>
    input[error.property] === undefined
      ? [{ field: error.property, problem: 'required' as const }]
      : failedRules(error),
  );
}

/**
 * Validates bodies, queries and path parameters against their DTO with class-validator.
 * Bodies must be JSON objects whose fields the DTO declares (an unknown field is named and
 * refused) and hold plain values; query strings may carry extra parameters (cache busters), which
 * are dropped. Strings are never coerced into numbers in bodies. Problems are gathered as data
 * (`FieldProblem`) and worded here, by the one catalogue (`problemMessage`).
 */
@Injectable()
export class ValidationPipe implements PipeTransform {
  private readonly declared = new Map<Dto, Set<string>>();
  /**
   * Outcomes for query strings and path parameters, by DTO and input. Their validators are pure
   * (no clock, no state): the same input always gets the same answer, and partners poll the same
   * few URLs. Bodies, whose dates are checked against today, are validated every time. Kept because
   * class-validator is a visible share of a request's CPU on routes through Nest's router
   * (`bench:compare --api-env CACHE_TTL_MS=0`).
   */
  private readonly remembered = new Map<Dto, Map<string, Outcome>>();

  transform(value: unknown, { metatype, type }: ArgumentMetadata): unknown {
    if (!metatype || PRIMITIVES.has(metatype) || type === 'custom') return value;
    const dto = metatype as Dto;
    if (type === 'body') return answer(this.validate(dto, type, value));
    let outcomes = this.remembered.get(dto);
    if (!outcomes) {
      outcomes = new Map();
      this.remembered.set(dto, outcomes);
    }
    const key = `${type}:${JSON.stringify(value ?? null)}`;
    let outcome = outcomes.get(key);
    if (!outcome) {
      outcome = this.validate(dto, type, value);
      if ('instance' in outcome) Object.freeze(outcome.instance);
      if (outcomes.size >= MAX_REMEMBERED) outcomes.clear();
      outcomes.set(key, outcome);
    }
    return answer(outcome);
  }

  private validate(dto: Dto, type: ArgumentMetadata['type'], value: unknown): Outcome {
    let declared = this.declared.get(dto);
    if (!declared) {
      declared = declaredProperties(dto);
      this.declared.set(dto, declared);
    }
    const title =
      type === 'body'
        ? MESSAGES.invalidBody
        : type === 'query'
          ? MESSAGES.invalidQuery
          : MESSAGES.invalidParam;

    if (type === 'body' && (typeof value !== 'object' || value === null || Array.isArray(value))) {
      return { title, details: [BODY_PROBLEMS.notAnObject] };
    }
    const input: Record<string, unknown> = {};
    const problems: FieldProblem[] = [];
    const notPlain = new Set<string>();
    for (const [key, field] of Object.entries((value ?? {}) as Record<string, unknown>)) {
      if (!declared.has(key)) {
        // Named in the answer, but no more than its first 100 characters.
        if (type === 'body') problems.push({ field: key.slice(0, 100), problem: 'unknown' });
        continue;
      }
      if (type === 'body' && typeof field === 'object' && field !== null) {
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
    // Unknown fields cut to 100 characters may read the same: one line for them.
    return problems.length
      ? { title, details: [...new Set(problems.map(problemMessage))] }
      : { instance };
  }
}

function answer(outcome: Outcome): object {
  if ('instance' in outcome) return outcome.instance;
  throw ApiError.badRequest(outcome.title, outcome.details);
}
