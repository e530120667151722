-- 0036_trophy_paid: the order that bought trophy_verification for a trophy
-- (docs/trophies.md): the console's verification queue shows it first,
-- marked paid.
ALTER TABLE trophies ADD COLUMN paid_order TEXT;
