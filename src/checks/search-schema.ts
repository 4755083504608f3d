/**
 * The business search answer (spec §2 "Business search result", §4.3) as a zod schema. Extra
 * members are allowed everywhere (the spec lists only some fields and says the rest are "not
 * shown"). `pageIndex` may count from 0 or from 1: only "an integer ≥ 0" is required.
 */
import { z } from 'zod';

const count = z.int().nonnegative();

const businessItemSchema = z.looseObject({
  id: z.union([z.string(), z.number()]),
  name: z.string(),
  registrationNumber: z.string(),
});

export const searchResultSchema = z
  .looseObject({
    items: z.array(businessItemSchema),
    pageIndex: count,
    // A page of size 0 holds nothing: every page size is at least 1.
    pageSize: z.int().positive(),
    totalCount: count,
  })
  .superRefine((page, ctx) => {
    if (page.items.length > page.pageSize) {
      // Stryker disable next-line StringLiteral: zod reports the issue whatever its code says.
      ctx.addIssue({ code: 'custom', path: ['items'], message: `${page.items.length} items on a page of pageSize ${page.pageSize}` });
    }
    if (page.totalCount < page.items.length) {
      // Stryker disable next-line StringLiteral: zod reports the issue whatever its code says.
      ctx.addIssue({ code: 'custom', path: ['totalCount'], message: `totalCount ${page.totalCount} is less than the ${page.items.length} items on the page` });
    }
  });

/** The first few problems of a parse, one line: "items.0.name: expected string; totalCount: required". */
export function schemaProblems(error: z.ZodError, max = 4): string {
  const lines = error.issues.slice(0, max).map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
  const rest = error.issues.length - lines.length;
  return lines.join('; ') + (rest > 0 ? `; and ${rest} more` : '');
}
