/**
 * Statements built once for each shape of a query (its sort, which filters it has, their values
 * where they are few: a shape holds only those, never a free value such as a search) and then only run with the request's values in placeholders. Drizzle builds
 * a statement's SQL anew on every run, and for an admin list page that took longer than PostgreSQL
 * took to run it (0.43 ms against 0.6 ms for a page of orders). The shape's key is in the
 * statement's name: a name then always has one text, as node-postgres requires of the statements
 * it prepares on each connection (and PostgreSQL cuts names at 63 bytes: keep keys short).
 */
export function statementPerShape<Shape extends Record<string, string | number | boolean | undefined>, Statement>(
  prefix: string,
  build: (shape: Shape, name: string) => Statement,
): (shape: Shape) => Statement {
  const built = new Map<string, Statement>();
  return (shape) => {
    const key = keyOf(shape);
    let statement = built.get(key);
    if (statement === undefined) {
      statement = build(shape, `${prefix}:${key}`);
      built.set(key, statement);
    }
    return statement;
  };
}

/** A shape's key: its values in the order of their names (true 1, false 0, none empty). */
function keyOf(shape: Record<string, string | number | boolean | undefined>): string {
  return Object.keys(shape)
    .sort()
    .map((name) => {
      const value = shape[name];
      return value === true ? '1' : value === false ? '0' : String(value ?? '');
    })
    .join('.');
}
