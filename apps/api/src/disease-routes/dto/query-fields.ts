import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsApiDate, IsCountryName, IsListFormat, LIST_FORMATS } from '@app/diseases';
import { FORMAT_DESCRIPTION } from '../../list-routes/list-route.decorator';

/*
 * The query fields the list DTOs share, each with its validation and its OpenAPI description
 * written once. Fields, not a base class: a base class's fields would come first in the
 * document's parameters, and each route keeps its own order. The decorators run in the order
 * that stacking them on the property ran them (the last one first).
 */

type FieldDecorator = (target: object, propertyName: string) => void;

// Not Nest's `applyDecorators`: its type refuses class-validator's decorators (string keys only).
function field(...decorators: FieldDecorator[]): FieldDecorator {
  return (target, propertyName) => decorators.forEach((d) => d(target, propertyName));
}

/** `format`: the list's format, as the `Accept` header may also choose it. */
export const FormatField = (): FieldDecorator =>
  field(
    IsListFormat(),
    IsOptional(),
    ApiPropertyOptional({ enum: LIST_FORMATS, description: FORMAT_DESCRIPTION }),
  );

/** `country`: a place by any name or code; `description` says what the route does with it. */
export const CountryField = (description: string): FieldDecorator =>
  field(
    IsCountryName(),
    IsOptional(),
    ApiPropertyOptional({ example: 'France', minLength: 1, maxLength: 100, description }),
  );

/** A date of the range (`YYYY-MM-DD`). */
const dateField = (example: string, description: string): FieldDecorator =>
  field(
    IsApiDate({ range: false }),
    IsOptional(),
    ApiPropertyOptional({ example, format: 'date', description }),
  );

/** `from`: the first date, inclusive. */
export const FromDateField = (example: string, description = 'First date, inclusive') =>
  dateField(example, description);

/** `to`: the last date, inclusive, not before `from`. */
export const ToDateField = (
  example: string,
  description = 'Last date, inclusive; not before `from` (400)',
) => dateField(example, description);
