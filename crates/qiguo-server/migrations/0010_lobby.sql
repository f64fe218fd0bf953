-- The lobby: public tables (their settings as JSON, when they stop waiting, the game they
-- started or when they closed unfilled), the people sitting at them in the order they sat
-- down, and each server's count of people connected (summed over the servers heard from
-- lately, for the lobby's "online").
CREATE TABLE public_tables (
    id          TEXT PRIMARY KEY,
    host        TEXT NOT NULL REFERENCES players (id),
    spec        TEXT NOT NULL,
    created_ms  BIGINT NOT NULL,
    fill_by_ms  BIGINT NOT NULL,
    game_id     TEXT REFERENCES games (id),
    closed_ms   BIGINT
);

-- The open tables, the soonest to stop waiting first.
CREATE INDEX public_tables_open ON public_tables (fill_by_ms)
    WHERE game_id IS NULL AND closed_ms IS NULL;

CREATE TABLE table_seats (
    table_id   TEXT NOT NULL REFERENCES public_tables (id),
    player     TEXT NOT NULL REFERENCES players (id),
    -- The order they sat down in (how many had sat down before, leavers included).
    n          BIGINT NOT NULL,
    joined_ms  BIGINT NOT NULL,
    PRIMARY KEY (table_id, player)
);

CREATE INDEX table_seats_by_player ON table_seats (player);

CREATE TABLE server_online (
    server   TEXT PRIMARY KEY,
    online   BIGINT NOT NULL,
    seen_ms  BIGINT NOT NULL
);
