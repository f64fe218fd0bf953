-- Reviews: every finished quick, table or rated game, and any game a player asks for, searched
-- move by move at a fixed node budget (qiguo_ai::review) by a server, or by a worker that only
-- reviews (`qiguo-server review`), on the same database. One row a game: asked when the game
-- finished (priority 0) or by a player (priority 1, served first, the newest first within a
-- priority); a server claims it for a while (`claimed_until_ms`, renewed while it works), and
-- writes the review as JSON when done, or gives up after a few tries.
CREATE TABLE reviews (
    game_id           TEXT PRIMARY KEY REFERENCES games (id),
    priority          BIGINT NOT NULL,
    asked_ms          BIGINT NOT NULL,
    -- The player who asked, told when it is ready; NULL for a game reviewed because it finished
    -- (its people are told).
    asked_by          TEXT REFERENCES players (id),
    claimed_until_ms  BIGINT,
    -- The server or worker holding the claim (its id), for the operator.
    claimed_by        TEXT,
    attempts          BIGINT NOT NULL DEFAULT 0,
    done_ms           BIGINT,
    -- Positions searched for each position.
    nodes             BIGINT,
    review            TEXT,
    last_error        TEXT
);

-- The reviews waiting, the first to be served first.
CREATE INDEX reviews_waiting ON reviews (priority, asked_ms) WHERE done_ms IS NULL;

-- The finished games, for finding those not yet asked for.
CREATE INDEX games_by_finish ON games (finished_ms) WHERE finished_ms IS NOT NULL;
