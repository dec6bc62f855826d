-- A category's name is its label in the list, the filter and the report's groups: one name a
-- workspace, whatever its case. Names given twice before keep the first; the others gain the end
-- of their id.
UPDATE categories SET name = categories.name || ' (' || right(categories.id, 8) || ')'
FROM (SELECT id, row_number() OVER (PARTITION BY workspace_id, lower(name) ORDER BY created_at, id) AS n FROM categories) AS named
WHERE categories.id = named.id AND named.n > 1;
CREATE UNIQUE INDEX categories_name ON categories (workspace_id, lower(name));
