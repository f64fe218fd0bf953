-- Conduct: the players each player blocked (never seated together by quick play or a table,
-- their table talk hidden), the reports players make of each other for the operator, and the
-- players the operator barred from play (refused at sign-in).
CREATE TABLE blocks (
    player   TEXT NOT NULL REFERENCES players (id),
    blocked  TEXT NOT NULL REFERENCES players (id),
    at_ms    BIGINT NOT NULL,
    PRIMARY KEY (player, blocked)
);

CREATE INDEX blocks_by_blocked ON blocks (blocked);

CREATE TABLE reports (
    id          TEXT PRIMARY KEY,
    by_player   TEXT NOT NULL REFERENCES players (id),
    about       TEXT NOT NULL REFERENCES players (id),
    game_id     TEXT REFERENCES games (id),
    reason      TEXT NOT NULL,
    at_ms       BIGINT NOT NULL,
    handled_ms  BIGINT
);

CREATE INDEX reports_open ON reports (at_ms) WHERE handled_ms IS NULL;

ALTER TABLE players ADD COLUMN play_barred BIGINT NOT NULL DEFAULT 0;
