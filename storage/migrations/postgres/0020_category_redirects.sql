-- PostgreSQL form of ../0020_category_redirects.sql (same tables, columns and rules; see storage/dialect.go).
-- Old slugs of categories (issue 16 item 3, docs/console.md "Categories").
-- A renamed category keeps its old slug here, and a category merged into
-- another leaves its slug (and its own old slugs) pointing at the target, so
-- links to either keep working: the page answers 301 to the current slug,
-- get_category and the category filter of search_listings read the current
-- category. Every old slug points at a category by id, so a chain (renamed
-- twice, renamed then merged) needs no walk.
CREATE TABLE category_redirects (
    site_id      BIGINT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    slug         TEXT NOT NULL,
    category_id  BIGINT NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (site_id, slug)
);
CREATE INDEX category_redirects_category ON category_redirects (category_id);

-- listing_categories had no UPDATE trigger: a link whose category or
-- primary flag changes is a change of its listing for the search index.
CREATE OR REPLACE FUNCTION search_log_lc_upd_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO search_log (listing_id) VALUES (NEW.listing_id);
    RETURN NULL;
END $$;
CREATE TRIGGER search_log_lc_upd AFTER UPDATE ON listing_categories
    FOR EACH ROW EXECUTE FUNCTION search_log_lc_upd_fn();
