-- Web Push: the server's VAPID key pair (one row, made by the first server to start; every server
-- on the database signs with it, as the devices subscribed with its public half), and the devices
-- each player let the page notify: the push service's endpoint for the device, the device's
-- P-256 key and authentication secret. An endpoint belongs to one player: a device given to
-- another player moves with its endpoint.
CREATE TABLE push_keys (
    id       BIGINT PRIMARY KEY,
    secret   TEXT NOT NULL,
    public   TEXT NOT NULL,
    made_ms  BIGINT NOT NULL
);

CREATE TABLE push_subscriptions (
    endpoint    TEXT PRIMARY KEY,
    player      TEXT NOT NULL REFERENCES players (id),
    p256dh      TEXT NOT NULL,
    auth        TEXT NOT NULL,
    made_ms     BIGINT NOT NULL,
    -- When a push service last took a message for it.
    taken_ms    BIGINT
);

CREATE INDEX push_subscriptions_by_player ON push_subscriptions (player, made_ms);
