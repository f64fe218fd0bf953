-- Quick play ("Play now"): a game's quick pace (`brisk`, `calm`, `daily`, `relaxed`), NULL for
-- every other game; and for a seat a person took over from a computer in a game under way, the
-- number of moves the game had then (their rating counts the part they played).
ALTER TABLE games ADD COLUMN quick TEXT;
ALTER TABLE seats ADD COLUMN taken_ply BIGINT;

-- The quick games under way of each pace, the youngest first: where a newcomer is seated.
CREATE INDEX games_quick ON games (quick, created_ms) WHERE quick IS NOT NULL AND finished_ms IS NULL;
