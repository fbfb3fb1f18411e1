export { AppError, define, type FieldError, type FixedBody } from './app-error.js';
export * from './declared.js';
export { FieldErrors, invalid, invalidField } from './invalid.js';
export { declare, declaredCodes, type CatalogName, type Declaration, type ErrorKind } from './registry.js';
