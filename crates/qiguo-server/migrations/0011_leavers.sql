-- The people a computer replaced in a quick game, absent past its grace: the seat, from which
-- move they held it and at which move they were replaced (their rating counts the part they
-- played, and places them where they left), and whether the game was rated (leaving rated games
-- lowers a person's reliability, and makes the next quick game wait).
CREATE TABLE seat_leaves (
    game_id   TEXT NOT NULL REFERENCES games (id),
    seat      BIGINT NOT NULL,
    player    TEXT NOT NULL REFERENCES players (id),
    from_ply  BIGINT NOT NULL,
    left_ply  BIGINT NOT NULL,
    rated     BIGINT NOT NULL,
    at_ms     BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat, left_ply)
);

CREATE INDEX seat_leaves_by_player ON seat_leaves (player, at_ms);
