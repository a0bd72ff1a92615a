-- The earliest first arrival among the users an instance told to come back who are due now, epoch
-- milliseconds on the clocks that stamped it; null when none is. Another instance gives no free slot
-- to a later click while it is on the board.
ALTER TABLE admission_fleet ADD COLUMN held_from_ms bigint;
