-- Tournaments of tables: a Swiss by correspondence (rounds, tables by standing) or an arena
-- (live, seated again at once), public (the operator's; `repeat_days` makes the next of a
-- series when one starts) or a club's own. A game cut at a Swiss round's deadline ends as by
-- agreement (`games.cut_ms`).
ALTER TABLE games ADD COLUMN cut_ms BIGINT;

CREATE TABLE tournaments (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    folded         TEXT NOT NULL,
    club           TEXT REFERENCES clubs (id),
    -- Who set it; NULL: the operator.
    by_player      TEXT REFERENCES players (id),
    format         TEXT NOT NULL,
    -- What it plays, as JSON (preset, pace, level, rated).
    play           TEXT NOT NULL,
    starts_ms      BIGINT NOT NULL,
    rounds         BIGINT NOT NULL,
    minutes        BIGINT NOT NULL,
    most           BIGINT NOT NULL,
    repeat_days    BIGINT,
    made_ms        BIGINT NOT NULL,
    -- A Swiss's round begun (claimed with its games in one transaction); an arena's 1 once
    -- begun.
    round          BIGINT NOT NULL DEFAULT 0,
    round_ends_ms  BIGINT,
    finished_ms    BIGINT,
    -- When its standings last changed (each server tells its own players when it sees this
    -- move).
    changed_ms     BIGINT NOT NULL DEFAULT 0
);

CREATE UNIQUE INDEX tournaments_folded ON tournaments (folded);
CREATE INDEX tournaments_running ON tournaments (starts_ms) WHERE finished_ms IS NULL;
CREATE INDEX tournaments_by_club ON tournaments (club, starts_ms);
CREATE INDEX tournaments_changed ON tournaments (changed_ms);

-- Who joined (and left), their score so far, and the game they play in it now; in an arena,
-- since when they wait for a table (`free_ms`).
CREATE TABLE tournament_people (
    tournament  TEXT NOT NULL REFERENCES tournaments (id),
    player      TEXT NOT NULL REFERENCES players (id),
    joined_ms   BIGINT NOT NULL,
    left_ms     BIGINT,
    -- In halves.
    points      BIGINT NOT NULL DEFAULT 0,
    games       BIGINT NOT NULL DEFAULT 0,
    firsts      BIGINT NOT NULL DEFAULT 0,
    streak      BIGINT NOT NULL DEFAULT 0,
    game_id     TEXT REFERENCES games (id),
    free_ms     BIGINT,
    PRIMARY KEY (tournament, player)
);

CREATE INDEX tournament_people_by_player ON tournament_people (player);
CREATE INDEX tournament_people_free ON tournament_people (tournament, free_ms)
    WHERE free_ms IS NOT NULL;

-- The tournament's games; scored once (claimed with the results in one transaction).
CREATE TABLE tournament_games (
    game_id     TEXT PRIMARY KEY REFERENCES games (id),
    tournament  TEXT NOT NULL REFERENCES tournaments (id),
    round       BIGINT NOT NULL,
    n           BIGINT NOT NULL,
    scored_ms   BIGINT
);

CREATE INDEX tournament_games_by_round ON tournament_games (tournament, round, n);
CREATE INDEX tournament_games_unscored ON tournament_games (tournament) WHERE scored_ms IS NULL;

-- Each person seated in each game (written when seated); their place and points once scored
-- (the points doubled by an arena's streak).
CREATE TABLE tournament_results (
    game_id     TEXT NOT NULL REFERENCES games (id),
    player      TEXT NOT NULL REFERENCES players (id),
    tournament  TEXT NOT NULL REFERENCES tournaments (id),
    round       BIGINT NOT NULL,
    place       BIGINT,
    points      BIGINT,
    PRIMARY KEY (game_id, player)
);

CREATE INDEX tournament_results_by_player ON tournament_results (tournament, player);
