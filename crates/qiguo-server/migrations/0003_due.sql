-- When a game not held by any server is next to be acted on by one (milliseconds since 1970): a
-- correspondence game's computer at once, its person's overdue move when the days are up. NULL
-- for live games (they go on only while a person is there), adjourned and finished ones. Servers
-- look for games whose time has come, so that they hold in memory only the games being played.
ALTER TABLE games ADD COLUMN due_ms BIGINT;

-- Every unfinished game is looked at once; a server puts its time right when it is not due.
UPDATE games SET due_ms = moved_ms WHERE finished_ms IS NULL;

CREATE INDEX games_due ON games (due_ms);
