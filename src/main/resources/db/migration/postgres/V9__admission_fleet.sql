-- The admission's fleet board: one row per instance whose appointment book reaches ahead, written
-- by that instance only, at most once per publish interval. updated_at is the database's clock
-- (now() at the write), so the age a reader computes (now() - updated_at) never depends on an
-- instance's clock. Stale rows (of instances that died) are deleted by the next reader.
CREATE TABLE admission_fleet (
  instance_id  text        PRIMARY KEY,
  booked_ms    bigint      NOT NULL,
  updated_at   timestamptz NOT NULL
);
