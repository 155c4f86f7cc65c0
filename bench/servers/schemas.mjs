// valibot schemas shared by the Hono and Express servers (the same rules as raw.mjs and Fastify's JSON schemas).
import * as v from 'valibot';

export const Movie = v.object({
  title: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  year: v.pipe(v.number(), v.integer(), v.minValue(1888), v.maxValue(2100)),
  rating: v.pipe(v.number(), v.minValue(0), v.maxValue(10)),
  genres: v.pipe(v.array(v.string()), v.maxLength(10)),
  released: v.boolean(),
});

const intFromString = v.pipe(v.string(), v.nonEmpty(), v.toNumber(), v.integer());
export const ItemPath = v.object({ item_id: intFromString });
export const ItemQuery = v.object({
  limit: v.optional(
    v.pipe(v.string(), v.nonEmpty(), v.toNumber(), v.integer(), v.minValue(1), v.maxValue(100)),
    '10',
  ),
});

export const issuesOf = (issues) =>
  issues.map((i) => ({ path: i.path ? i.path.map((p) => p.key).join('.') : '', message: i.message }));
