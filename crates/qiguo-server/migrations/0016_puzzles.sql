-- Puzzles mined from reviewed games (qiguo_ai::puzzles), kept in the review's commit by the
-- server or worker that reviewed the game: one row a puzzle, named as the game names it (twelve
-- hexadecimal digits of a hash of its position and move), kept once however often it is found.
-- Its rating starts at the miner's guess (`rating`, shown) and moves with every player's first
-- try at it (`mu`, `sigma`, as the players' ratings are kept).
CREATE TABLE puzzles (
    id         TEXT PRIMARY KEY,
    game_id    TEXT NOT NULL REFERENCES games (id),
    -- The move of the game it comes from (the position is before it).
    ply        BIGINT NOT NULL,
    theme      TEXT NOT NULL,
    -- Its rating now, as shown (kept beside mu for choosing one near a player's).
    rating     BIGINT NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    tries      BIGINT NOT NULL DEFAULT 0,
    solved     BIGINT NOT NULL DEFAULT 0,
    -- The puzzle as JSON (`qiguo puzzles mine --json`'s form, one of its array), its rating the
    -- miner's guess.
    puzzle     TEXT NOT NULL,
    found_ms   BIGINT NOT NULL
);

-- The puzzles by rating, for choosing one near a player's.
CREATE INDEX puzzles_by_rating ON puzzles (rating);

-- Each player's puzzle rating (none before a first try).
CREATE TABLE puzzle_solvers (
    player      TEXT PRIMARY KEY REFERENCES players (id),
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    tries       BIGINT NOT NULL,
    changed_ms  BIGINT NOT NULL
);

-- Each player's first try at each puzzle: the only one that moves the ratings.
CREATE TABLE puzzle_tries (
    player    TEXT NOT NULL REFERENCES players (id),
    puzzle    TEXT NOT NULL REFERENCES puzzles (id),
    solved    BIGINT NOT NULL,
    tried_ms  BIGINT NOT NULL,
    PRIMARY KEY (player, puzzle)
);
