import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { SpaceActError } from '../core/errors.ts';
import { formatSchemaErrors } from '../tasks/instance-schema.ts';
import type { Usage } from './types.ts';

/** Dollars per million tokens of one model. */
export interface ModelPrice {
  input_per_mtok: number;
  output_per_mtok: number;
}

/** A price table: model name → prices (the file given to `--prices`). */
export type PriceTable = Record<string, ModelPrice>;

const PRICE_SCHEMA = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    required: ['input_per_mtok', 'output_per_mtok'],
    additionalProperties: false,
    properties: {
      input_per_mtok: { type: 'number', minimum: 0 },
      output_per_mtok: { type: 'number', minimum: 0 },
    },
  },
} as const;

const validatePrices = new Ajv2020({ allErrors: true, strict: false }).compile(PRICE_SCHEMA);

/** Reads and checks a price table file: `{"model": {"input_per_mtok": 2.5, "output_per_mtok": 10}}`. */
export function loadPriceTable(file: string): PriceTable {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new SpaceActError('io', `cannot read the price table ${file}: ${(err as Error).message}`, { file });
  }
  if (!validatePrices(data)) {
    const problems = formatSchemaErrors(validatePrices.errors);
    throw new SpaceActError('invalid-argument', `price table ${file} is not valid: ${problems.join('; ')}`, { file, problems });
  }
  return data as PriceTable;
}

/** Dollars for a token count at a model's prices. */
export function costOf(price: ModelPrice, inputTokens: number, outputTokens: number): number {
  return (inputTokens * price.input_per_mtok + outputTokens * price.output_per_mtok) / 1e6;
}

/** Adds two usages (cost kept when either side has one). */
export function addUsage(a: Usage, b: Usage | undefined): Usage {
  if (!b) return a;
  const out: Usage = { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
  if (a.cost !== undefined || b.cost !== undefined) out.cost = (a.cost ?? 0) + (b.cost ?? 0);
  return out;
}
