import { ArgumentMetadata, Injectable, ValidationPipe, PipeTransform } from '@nestjs/common';
import { ValidationError, getMetadataStorage } from 'class-validator';
import { ApiError, BODY_PROBLEMS, FieldProblem, MESSAGES } from '@app/common';
import { fieldProblems, wording } from './validation-problems';

type Dto = new () => object;

/** What Nest's pipe found wrong with the fields, handed back to join the shape's problems. */
class FieldErrors {
  constructor(readonly errors: ValidationError[]) {}
}

/** A body's own keys sorted out: the declared plain values to validate, and what is wrong with the rest. */
interface Shape {
  input: Record<string, unknown>;
  problems: FieldProblem[];
  refused: Set<string>;
}

/**
 * Validates a body against its DTO. First its shape, which Nest's `ValidationPipe` does not check:
 * a JSON object whose every field the DTO declares (an unknown field is named and refused,
 * `__proto__` included, which Nest's pipe would drop silently) and holds a plain value. Then its
 * fields, with Nest's pipe (strings are never coerced into numbers). All the problems in one
 * answer, worded by the one catalogue.
 */
@Injectable()
export class BodyValidationPipe implements PipeTransform {
  private readonly declared = new Map<Dto, Set<string>>();
  private readonly fields = new ValidationPipe({
    transform: true,
    exceptionFactory: (errors) => new FieldErrors(errors),
  });

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<object> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw ApiError.badRequest(MESSAGES.invalidBody, [BODY_PROBLEMS.notAnObject]);
    }
    const { input, problems, refused } = this.shape(metadata.metatype as Dto, value);
    const instance: unknown = await this.fields
      .transform(input, metadata)
      .catch((error: unknown) => {
        if (!(error instanceof FieldErrors)) throw error;
        // A field refused for its shape is missing from the input: it is not reported a second time.
        problems.push(...fieldProblems(error.errors.filter((e) => !refused.has(e.property))));
      });
    if (problems.length) throw ApiError.badRequest(MESSAGES.invalidBody, wording(problems));
    return instance as object;
  }

  private shape(dto: Dto, body: object): Shape {
    const declared = this.declaredBy(dto);
    const shape: Shape = { input: {}, problems: [], refused: new Set() };
    for (const [key, field] of Object.entries(body)) {
      if (!declared.has(key)) {
        // Named in the answer, but no more than its first 100 characters.
        shape.problems.push({ field: key.slice(0, 100), problem: 'unknown' });
      } else if (typeof field === 'object' && field !== null) {
        // Only plain values are expected; refusing here also keeps deep JSON out of the transformer.
        shape.problems.push({ field: key, problem: 'not-plain' });
        shape.refused.add(key);
      } else {
        shape.input[key] = field;
      }
    }
    return shape;
  }

  /** The properties a DTO declares (anything else is an unknown field). */
  private declaredBy(dto: Dto): Set<string> {
    let declared = this.declared.get(dto);
    if (!declared) {
      const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
      declared = new Set(metadata.map((m) => m.propertyName));
      this.declared.set(dto, declared);
    }
    return declared;
  }
}
