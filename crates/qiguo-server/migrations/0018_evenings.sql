-- A club's own tables (shown in the club's view, not the lobby; only its members sit at them),
-- and club evenings: an organiser sets a time; members say they come; at the time the people
-- present are seated at tables of seven, its games kept with the evening; latecomers take a
-- computer's kingdom in one of them.
ALTER TABLE public_tables ADD COLUMN club TEXT REFERENCES clubs (id);

CREATE INDEX public_tables_by_club ON public_tables (club, fill_by_ms)
    WHERE game_id IS NULL AND closed_ms IS NULL;

CREATE TABLE evenings (
    id            TEXT PRIMARY KEY,
    club          TEXT NOT NULL REFERENCES clubs (id),
    by_player     TEXT NOT NULL REFERENCES players (id),
    at_ms         BIGINT NOT NULL,
    -- What it plays, as JSON (preset, pace, level, seating, rated).
    play          TEXT NOT NULL,
    made_ms       BIGINT NOT NULL,
    -- When one server seated its people (once: the row claimed in the same transaction).
    started_ms    BIGINT,
    cancelled_ms  BIGINT
);

-- The evenings still to begin, the soonest first.
CREATE INDEX evenings_due ON evenings (at_ms) WHERE started_ms IS NULL AND cancelled_ms IS NULL;
CREATE INDEX evenings_by_club ON evenings (club, at_ms);

-- Who said they come (and, once seated, their game).
CREATE TABLE evening_people (
    evening   TEXT NOT NULL REFERENCES evenings (id),
    player    TEXT NOT NULL REFERENCES players (id),
    said_ms   BIGINT NOT NULL,
    game_id   TEXT REFERENCES games (id),
    PRIMARY KEY (evening, player)
);

CREATE INDEX evening_people_by_player ON evening_people (player);

-- The evening's games, in the order they were made.
CREATE TABLE evening_games (
    evening   TEXT NOT NULL REFERENCES evenings (id),
    game_id   TEXT NOT NULL REFERENCES games (id),
    n         BIGINT NOT NULL,
    PRIMARY KEY (evening, game_id)
);
