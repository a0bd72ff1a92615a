-- The earliest first arrival an instance holds back (waiting in its line, or told to come back and
-- due), epoch milliseconds on the clocks that stamped it; null when it holds nobody back. Another
-- instance gives no free slot to a later click while it is on the board.
ALTER TABLE admission_fleet ADD COLUMN held_from_ms bigint;
