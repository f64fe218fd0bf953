-- The first schema: players, games, their seats and moves. Written in the SQL that SQLite and
-- PostgreSQL share: text ids made by the server, times as milliseconds since 1970.
CREATE TABLE players (
    id          TEXT PRIMARY KEY,
    key_hash    TEXT NOT NULL,
    name        TEXT NOT NULL,
    created_ms  BIGINT NOT NULL
);

CREATE TABLE games (
    id           TEXT PRIMARY KEY,
    code         TEXT NOT NULL UNIQUE,
    creator      TEXT NOT NULL REFERENCES players (id),
    record       TEXT NOT NULL,
    pace         TEXT NOT NULL,
    created_ms   BIGINT NOT NULL,
    moved_ms     BIGINT NOT NULL,
    finished_ms  BIGINT
);

CREATE TABLE seats (
    game_id   TEXT NOT NULL REFERENCES games (id),
    seat      BIGINT NOT NULL,
    plan      TEXT NOT NULL,
    holder    TEXT REFERENCES players (id),
    PRIMARY KEY (game_id, seat)
);

CREATE INDEX seats_by_holder ON seats (holder);

CREATE TABLE moves (
    game_id    TEXT NOT NULL REFERENCES games (id),
    ply        BIGINT NOT NULL,
    mv         TEXT NOT NULL,
    seat       BIGINT NOT NULL,
    stand_in   BIGINT NOT NULL,
    played_ms  BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
