import { _, type Ajv, type KeywordCxt } from 'ajv';

/**
 * The `finite` keyword, carried by the shared integer ranges (models.ts). Type coercion turns the
 * text "1e309" into Infinity, which Ajv's minimum and maximum then skip (they check finite numbers
 * only): this refuses it, as a validation failure like any other out-of-range value.
 */
export function finiteNumbers(ajv: Ajv): Ajv {
  return ajv.addKeyword({
    keyword: 'finite',
    schemaType: 'boolean',
    error: { message: 'must be a finite number' },
    code(cxt: KeywordCxt) {
      // Untyped: keywords of type number sit behind Ajv's own isFinite check and would never see Infinity.
      if (cxt.schema) cxt.fail(_`typeof ${cxt.data} == "number" && !isFinite(${cxt.data})`);
    },
  });
}
