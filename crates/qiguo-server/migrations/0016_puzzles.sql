-- Puzzles mined from reviewed games (qiguo_ai::puzzles), kept in the review's commit by the
-- server or worker that reviewed the game: one row a puzzle, named as the game names it (twelve
-- hexadecimal digits of a hash of its position and move), kept once however often it is found.
CREATE TABLE puzzles (
    id         TEXT PRIMARY KEY,
    game_id    TEXT NOT NULL REFERENCES games (id),
    -- The move of the game it comes from (the position is before it).
    ply        BIGINT NOT NULL,
    theme      TEXT NOT NULL,
    rating     BIGINT NOT NULL,
    -- The puzzle as JSON (`qiguo puzzles mine --json`'s form, one of its array).
    puzzle     TEXT NOT NULL,
    found_ms   BIGINT NOT NULL
);

-- The puzzles by theme and rating, for choosing one near a solver.
CREATE INDEX puzzles_by_theme ON puzzles (theme, rating);
