-- The take-back being asked in a game, if any: who asked (player number), the first move to take
-- back, who has agreed (a JSON array of player numbers). Kept here so that every server on the
-- database sees it; gone when the moves are taken back, refused, or a move is made.
CREATE TABLE take_backs (
    game_id  TEXT PRIMARY KEY REFERENCES games (id),
    by_seat  BIGINT NOT NULL,
    ply      BIGINT NOT NULL,
    agreed   TEXT NOT NULL
);
