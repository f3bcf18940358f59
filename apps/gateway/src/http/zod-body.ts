import { Injectable, UsePipes, applyDecorators, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { ApiBody, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { z } from 'zod';
import { AppError, rejectNulText, toValidationIssues } from '@market/server-kit';

/** Validates one part of a request with a contracts schema; a failure is a 422 detail list located in that part. */
export function parseRequest<S extends z.ZodType>(schema: S, value: unknown, where: 'body' | 'query' | 'path'): z.infer<S> {
  rejectNulText(value, where);
  const result = schema.safeParse(value);
  if (!result.success) throw new AppError('validation_failed', toValidationIssues(result.error, where));
  return result.data;
}

/** Validates the request body with a contracts schema; failures are 422 detail lists. */
@Injectable()
export class ZodBodyPipe implements PipeTransform {
  constructor(private readonly schema: z.ZodType) {}

  transform(value: unknown, metadata: ArgumentMetadata) {
    return metadata.type === 'body' ? parseRequest(this.schema, value, 'body') : value;
  }
}

/** Declares a route's body schema once: validation and its OpenAPI description come from it. */
export function ZodBody(schema: z.ZodType) {
  const jsonSchema = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as SchemaObject;
  delete (jsonSchema as Record<string, unknown>).$schema;
  return applyDecorators(
    ApiBody({ schema: jsonSchema }),
    ApiUnprocessableEntityResponse({ description: 'Validation failed: {"detail": [{"loc", "msg", "type"}]}' }),
    UsePipes(new ZodBodyPipe(schema)),
  );
}
