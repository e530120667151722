-- PostgreSQL form of ../0018_settings.sql (same tables, columns and rules; see storage/dialect.go).
-- 0018_settings: the site settings the site team changes on /admin/settings
-- or with "launchdir admin settings set" (issue 16 item 2, docs/console.md).
--
-- One row per setting that was set; a setting without a row has its default
-- (the flags and the configuration). The keys and their rules are
-- domain.SettingDefs; values are kept as the text the console validated.
CREATE TABLE site_settings (
    site_id     BIGINT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    key         TEXT NOT NULL,
    value       TEXT NOT NULL,
    updated_by  TEXT NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (site_id, key)
);
