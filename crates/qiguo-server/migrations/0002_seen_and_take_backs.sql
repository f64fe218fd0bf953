-- When each seat's player last had the game open (milliseconds since 1970): a live game's seat
-- whose player has not been seen for a while is played by a stand-in. Written by every server on
-- the database, so that all of them agree who is present.
ALTER TABLE seats ADD COLUMN seen_ms BIGINT;

-- The servers look for unfinished games when they start.
CREATE INDEX games_unfinished ON games (finished_ms);
