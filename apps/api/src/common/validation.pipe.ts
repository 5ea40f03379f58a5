import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { ValidationError, getMetadataStorage, validateSync } from 'class-validator';
import { ApiError, MESSAGES } from '@app/common';

type Dto = new () => object;

const PRIMITIVES = new Set<unknown>([String, Boolean, Number, Array, Object]);

/** Query strings and path parameters validated and remembered, at most (then forgotten at once). */
const MAX_REMEMBERED = 1000;

/** The properties a DTO declares (anything else is an unknown field). */
function declaredProperties(metatype: Dto): Set<string> {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false);
  return new Set(metadata.map((m) => m.propertyName));
}

/** A validated query or path: the (frozen) DTO, or the problems to answer with. */
type Outcome = { instance: object } | { title: string; problems: string[] };

function messages(errors: ValidationError[], input: Record<string, unknown>): string[] {
  return errors.flatMap((error) =>
    input[error.property] === undefined
      ? [`${error.property} : champ obligatoire`]
      : Object.values(error.constraints ?? {}),
  );
}

/**
 * Validates bodies, queries and path parameters against their DTO with class-validator.
 * Bodies must be JSON objects whose fields the DTO declares (an unknown field is named and
 * refused) and hold plain values; query strings may carry extra parameters (cache busters), which
 * are dropped. Strings are never coerced into numbers in bodies.
 */
@Injectable()
export class ValidationPipe implements PipeTransform {
  private readonly declared = new Map<Dto, Set<string>>();
  /**
   * Outcomes for query strings and path parameters, by DTO and input. Their validators are pure
   * (no clock, no state): the same input always gets the same answer, and partners poll the same
   * few URLs. Bodies, whose dates are checked against today, are validated every time.
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
      return { title, problems: ['le corps doit être un objet JSON'] };
    }
    const input: Record<string, unknown> = {};
    const problems: string[] = [];
    for (const [key, field] of Object.entries((value ?? {}) as Record<string, unknown>)) {
      if (!declared.has(key)) {
        if (type === 'body') problems.push(`${key.slice(0, 100)} : champ inconnu`);
        continue;
      }
      if (type === 'body' && typeof field === 'object' && field !== null) {
        // Only plain values are expected; refusing here also keeps deep JSON out of the transformer.
        problems.push(`${key} : doit être une valeur simple (nombre ou chaîne)`);
        continue;
      }
      input[key] = field;
    }
    const instance = plainToInstance(dto, input);
    const errors = validateSync(instance, { forbidUnknownValues: false });
    const invalid = new Set(problems.map((p) => p.split(' : ')[0]));
    problems.push(
      ...messages(
        errors.filter((e) => !invalid.has(e.property)),
        input,
      ),
    );
    return problems.length ? { title, problems: [...new Set(problems)] } : { instance };
  }
}

function answer(outcome: Outcome): object {
  if ('instance' in outcome) return outcome.instance;
  throw ApiError.badRequest(outcome.title, outcome.problems);
}
