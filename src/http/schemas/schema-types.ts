// Schema building blocks of the public cards, shared by the HTTP API and webhook payloads.
import { Type, type TSchema } from '@sinclair/typebox';

/** Dates leave as ISO 8601 strings; presenters may hand the serialiser a Date. */
export const DateTime = Type.Unsafe<Date | string>({ type: 'string', format: 'date-time' });
export const NullableDateTime = Type.Union([DateTime, Type.Null()]);
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** One of a fixed set of strings, as a JSON-schema enum (validation names the allowed values). */
export const StringEnum = <T extends readonly string[]>(values: T, options: { description?: string } = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

export const JsonObject = Type.Object({}, { additionalProperties: true, description: 'Any JSON object, returned unchanged' });
