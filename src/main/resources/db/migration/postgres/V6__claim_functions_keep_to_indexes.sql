-- The claim functions keep to their indexes whatever the tables' statistics say.
--
-- A PL/pgSQL function plans each statement once per connection and keeps the plan. On a new
-- database the claims table is small or empty when it is first analyzed; a statement planned then
-- scans the whole table (the cheapest way to read an empty one), and the connection keeps that
-- plan while a sale grows the table by thousands of rows a second, until autovacuum analyzes it
-- again: every claim then reads every claim. Each statement of these functions reads a handful of
-- rows through an index (a user's claims by the primary key, the unassigned coupons by the partial
-- index, a coupon by its key), so a sequential scan is never the right plan for them. The setting
-- holds only while the function runs.
ALTER FUNCTION claim_coupon(text, text, integer, integer, timestamptz, integer, integer)
  SET enable_seqscan = off;
ALTER FUNCTION claim_coupons(text[], text[], integer[], integer[], integer[], integer[], timestamptz)
  SET enable_seqscan = off;
