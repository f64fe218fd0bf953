# What the server writes to players by e-mail, and the pages its e-mails' links open, in
# English. Kept in the same shape in sv.ftl and zh-Hant.ftl (the tests compare them).

kingdom-qin = Qin
kingdom-chu = Chu
kingdom-han = Han
kingdom-qi = Qi
kingdom-wei = Wei
kingdom-zhao = Zhao
kingdom-yan = Yan

victory =
    { $victory ->
        [generals] captured two Generals
        [kingdoms] beat two kingdoms
        [captures] reached the capture goal
        [last_kingdom] is the last left in the game
        [early_end] had the most captures when the game was ended
       *[most_captures] had the most captures when a goal was reached
    }

mail-greeting = Hello { $name },
mail-sign-off = Qiguo, the Game of the Seven Kingdoms ({ $server })
mail-footer =
    You get this e-mail because you gave this address to the Qiguo server at { $server }.
    To get no more, open: { $unsubscribe }

mail-confirm-subject = Confirm your e-mail address for Qiguo
mail-confirm-body =
    Someone, most likely you, gave this address to the Qiguo server at { $server } for { $name }.
    To be told by e-mail when it is your move, confirm it by opening this link within { $days } days:

    { $link }

    If it was not you, do nothing: no other e-mail will be sent here.

mail-turn-subject = Your move as { $kingdom } in Qiguo
mail-turn-body =
    It is your move as { $kingdom } in the game of { $players }.
    Move { $moves } has been played; your turn runs out on { $deadline } (UTC).

    Open the game: { $link }

mail-reminder-subject = One day left for your move as { $kingdom }
mail-reminder-body =
    Your turn as { $kingdom } in the game of { $players } runs out on { $deadline } (UTC).
    After that, a computer plays it for you.

    Open the game: { $link }

mail-end-subject = Your Qiguo game is over: { $result }
mail-end-won = { $kingdom } { $victory }
mail-end-nobody = nobody won
mail-end-body =
    The game of { $players } is over after { $moves } moves: { $result }.
    Your kingdoms: { $yours }.

    See the game and its record: { $link }

mail-evening-subject = { $club } plays at { $time } (UTC)
mail-evening-body =
    You said you would come to { $club }'s evening. It begins at { $time } (UTC).
    Be connected then and you will be seated at a table of seven: { $link }

mail-review-subject = Your Qiguo game has been reviewed
mail-review-body =
    Every move of the game of { $players } ({ $moves } moves) has been searched: your mistakes are
    marked in its report, and you can learn from them on the board.

    See the review: { $link }

mail-digest-subject =
    { $count ->
        [one] A game waits for your move in Qiguo
       *[other] { $count } games wait for your move in Qiguo
    }
mail-digest-body = These games wait for your move:
mail-digest-line = { $kingdom } in the game of { $players }, until { $deadline } (UTC): { $link }

page-confirm-title = Confirm your e-mail address
page-confirm-text = Confirm { $address } for { $name } on this Qiguo server?
page-confirm-button = Confirm
page-confirm-done = { $address } is confirmed. You will be told by e-mail when it is your move.
page-unsubscribe-title = No more e-mail
page-unsubscribe-text = Stop all e-mail to { $address } from this Qiguo server?
page-unsubscribe-button = Stop the e-mails
page-unsubscribe-done = No more e-mail will be sent to { $address }. You can give an address again in My games.
page-expired = This link has been used or is out of date.

## Notifications pushed to a player's devices (Web Push): the turn's, the reminder's and the
## end's titles are the e-mails' subjects; below them, one line.
push-turn-body = The game of { $players }, after move { $moves }.
push-reminder-body = The game of { $players }: your turn runs out on { $deadline } (UTC).
push-end-body = The game of { $players } is over after { $moves } moves.
push-review-body = The game of { $players }: every move searched, your mistakes marked.
push-club-news-title = { $club }: news
push-club-news-body = { $text } ({ $by })
push-evening-title = { $club } plays soon
push-evening-body = The evening begins at { $time } (UTC): be connected to be seated.
