-- Table talk: what the people at a game's table wrote to everyone there, numbered from 0 in each
-- game. A line the operator hid (`hidden` 1) is no longer read out.
CREATE TABLE talk (
    game_id  TEXT NOT NULL REFERENCES games (id),
    n        BIGINT NOT NULL,
    seat     BIGINT NOT NULL,
    author   TEXT NOT NULL REFERENCES players (id),
    text     TEXT NOT NULL,
    said_ms  BIGINT NOT NULL,
    hidden   BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, n)
);

-- Whose lines each player no longer reads.
CREATE TABLE mutes (
    player  TEXT NOT NULL REFERENCES players (id),
    muted   TEXT NOT NULL REFERENCES players (id),
    PRIMARY KEY (player, muted)
);

-- Players the operator barred from table talk (1).
ALTER TABLE players ADD COLUMN talk_barred BIGINT NOT NULL DEFAULT 0;
