// How the search reads text and field values: a text's words, and the values of a field on a row.
import type { Product } from '../indexing/catalog';
import { fieldValue } from './items';

/** Lowercase words of a text: letters and digits, everything else separates. */
export function words(text: string | null): string[] {
  if (!text) return [];
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Values of a field on a row: `|` separates several values ("Shoes|Running"). */
export function valuesOf(p: Product, field: string): string[] {
  const v = fieldValue(p, field);
  if (v === null) return [];
  return v.includes('|')
    ? v
        .split('|')
        .map((s) => s.trim())
        .filter(Boolean)
    : [v];
}
