-- The periodic cleanup deletes expired idempotency records in small batches; without an index each
-- batch would scan the whole table, which holds a day of keys. Guards need none: a guard lives
-- only while its request runs, so the table stays small.
CREATE INDEX idempotency_expires_at ON idempotency (expires_at);
