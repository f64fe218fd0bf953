-- Ratings: whether a game counts for them (quick games do, and those finished before this
-- migration are rated in the order they finished when a server next starts), when its ratings
-- were applied (once, in the transaction that writes them), each person's rating per pace
-- family (`live`, `correspondence`), and what each rated game did to each person's.
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rated_ms BIGINT;
UPDATE games SET rated = 1 WHERE quick IS NOT NULL;

CREATE TABLE ratings (
    player      TEXT NOT NULL REFERENCES players (id),
    family      TEXT NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    games       BIGINT NOT NULL,
    changed_ms  BIGINT NOT NULL,
    PRIMARY KEY (player, family)
);

-- The leaderboard of a family: the highest means first.
CREATE INDEX ratings_board ON ratings (family, mu);

CREATE TABLE rating_changes (
    player      TEXT NOT NULL REFERENCES players (id),
    game_id     TEXT NOT NULL REFERENCES games (id),
    family      TEXT NOT NULL,
    place       BIGINT NOT NULL,
    sides       BIGINT NOT NULL,
    weight      DOUBLE PRECISION NOT NULL,
    mu_before   DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    at_ms       BIGINT NOT NULL,
    PRIMARY KEY (player, game_id)
);

-- A player's history in a family, the newest first.
CREATE INDEX rating_changes_by_player ON rating_changes (player, family, at_ms);

-- The finished rated games whose ratings are not yet applied (a server killed in between).
CREATE INDEX games_unrated ON games (finished_ms) WHERE rated = 1 AND rated_ms IS NULL;
