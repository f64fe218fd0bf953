# Qiguo's interface in English. Every message here must exist, with the same variables, in
# zh-Hant.ftl and sv.ftl (the tests check). Kingdom and piece names are passed in already
# translated.

## Names

kingdom-qin = Qin
kingdom-chu = Chu
kingdom-han = Han
kingdom-qi = Qi
kingdom-wei = Wei
kingdom-zhao = Zhao
kingdom-yan = Yan
piece-general = General
piece-chancellor = Chancellor
piece-diplomat = Diplomat
piece-cannon = Cannon
piece-go-between = Go-between
piece-archer = Archer
piece-crossbowman = Crossbowman
piece-dagger = Dagger
piece-swordsman = Swordsman
piece-knight = Knight
level-random = Random
level-easy = Easy
level-medium = Medium
level-hard = Hard
player-person = Person
preset-classic = The 1206 text: beaten at 11 losses, armies removed; win with 2 Generals or 30 captures
preset-wikipedia = Armies change hands; win by beating 2 kingdoms or capturing more than 30
preset-elephantchess = elephantchess.io: beaten at 10 losses, armies and their pieces go to the victor
preset-leventhal = Exact archer, crossbow and knight ranges; beaten at 10 losses, armies removed
preset-ludii = Ludii's description: as leventhal, but a cannon captures only over its own pieces, and a goal reached ends the game for the most captures to win
victory-generals = captured two Generals
victory-kingdoms = beat two kingdoms
victory-captures = reached the capture goal
victory-last = is the last left in the game
victory-early-end = had the most captures when the game was ended
victory-most-captures = had the most captures when a goal was reached
list-separator = {", "}
list-and = { $first } and { $last }
moves-count = { $count ->
    [one] { $count } move
   *[other] { $count } moves
}
player-unnamed = —

## Toolbar

menu-new-game = New game…
menu-save = Save…
menu-load = Load…
saving-off = Saving is off in this session
save-default-name = Game { $when }
menu-share = Share…
menu-share-hint = Copy or paste a position or a whole game as text
menu-rules = Rules
menu-rules-hint = The rules this game plays, and how the presets differ ({ $key })
menu-hint = Hint
menu-hint-hint = The move Hard would play, for the person to move ({ $key })
hint-searching = Looking for a hint…
hint-shown = Hint: { $mv } — { $reason }; your chances with it about { $chance } %
hint-takes-general = takes { $kingdom }'s General
hint-takes = takes { $kingdom }'s { $piece }
hint-saves = saves your { $piece }
hint-position = best by position
menu-concede = Concede…
menu-concede-hint = Give up the kingdom to move: the computers (or the others) play on without it
concede-title = Concede { $kingdom }?
concede-explain = The kingdom leaves the game as one that falls without a capture: the kingdom that took most of its pieces (by these rules) is credited with it, if any has earned it.
concede-ends = This ends the game: { $kingdom } wins by { $how }.
concede-undo = Written in the record like a move; { $key } takes it back.
concede-confirm = Concede { $kingdom }
concede-keys = The game's window asks it: from the board, Tab goes to its buttons ({ $confirm }, { $cancel }) and Enter presses one.
finish-title = No person is left in the game
finish-explain = Every person's kingdom is out. The computers can play the game to its end, or you can start a new one.
finish-keys = From the board, Tab goes to its buttons ({ $instant }; { $watch }; { $new }) and Enter presses one.
finish-instant = Let the computers finish (instant)
finish-watch = Watch at this pace
menu-settings = Settings…
menu-settings-hint = Camera, sound, language, interface size, fullscreen — kept for next time
view-label = View
view-from-behind = From behind { $kingdom } (key { $key })
view-top = Top
view-top-hint = From above (key { $key })
follow-turn = Turn to the kingdom to move
toolbar-threats = Threats
threats-hint = Shade the points the other kingdoms attack and mark your stones they can take (key { $key })
hand-off = Hand-off
hand-off-hint = Name the kingdom and player when the board passes to another person
sound-mute = Mute
mute-hint = Silence the game (key { $key })
sound-volume = Volume

## Status line

toast-move-refused = { $mv }: { $reason }
status-won = { $kingdom } wins: { $how }
status-reviewing = Looking back at the game · { $count ->
    [one] { $count } move played
   *[other] { $count } moves played
}
status-reviewing-keys = { $back } and { $forward } step · { $first }: the start · { $live } or { $escape }: back to the game
status-thinking = Move { $ply } · { $kingdom } ({ $level } computer) is thinking…
status-to-move = Move { $ply } · { $kingdom } ({ $player }) to move
status-mouse-keys = click a stone · { $preview }: preview any stone · { $typing }: type a move · { $cursor }: cursor · right-drag: turn · wheel: zoom
status-touch = tap a stone, then a point · hold a stone: its card · drag: turn · pinch: zoom

## New game

new-game-title = New game
new-game-rules = Rules
new-game-seating = Seating
seating-seven = 7 players, one kingdom each
seating-six = 6 players (1206: Qin's player takes one more)
seating-five = 5 players (… and Chu's)
seating-four = 4 players (… and Qi's)
seating-three = 3 players (Qin's takes two more)
seating-present = Only the players present
seating-two-players = 2 players (Savard: Chu, Qi, Zhao against Han, Wei, Yan)
new-game-also-takes = { $kingdom }'s player also takes
new-game-and = … and
new-game-empty = Empty (no army): { $kingdoms }
new-game-start = Start
player-default-name = Player { $number }
seating-error-two-players = A game needs at least two players
seating-error-held = { $kingdom } is already held: { $player }'s player cannot take it

## Attacking an ally, game over

ally-title = Attack your ally { $ally }?
ally-question = { $ally } is held by the same player as { $mover }. If you attack it, { $ally } forfeits: all its pieces leave the board and nobody is credited (若擊與國，則盡撤去與國之棋).
ally-attack = Attack
dialog-cancel = Cancel
game-over-title = Game over
game-over-wins = { $kingdom } wins
game-over-how = { $player } { $how }.
game-over-captures = { $count ->
    [one] { $count } capture
   *[other] { $count } captures
}
game-over-report = Game report
game-over-look = Look at the board
game-over-take-back = Take back the last move

## Moves in words

move-passes = { $ply }. { $kingdom } passes
move-concedes = { $ply }. { $kingdom } concedes
move-army-leaves = . Its army leaves the board
move-sentence = { $ply }. { $kingdom } { $piece } { $from }–{ $to }
move-takes = , takes { $owner }'s { $piece } { $characters }
move-forfeits = . { $kingdom } forfeits, attacked by its ally { $ally }
move-beaten-army-to = . { $kingdom } is beaten; its army goes to { $victor }
move-beaten-army-leaves = . { $kingdom } is beaten by { $victor }; its army leaves the board
fall-short-forfeits = { $kingdom } forfeits
fall-short-to = { $kingdom } to { $victor }
fall-short-falls = { $kingdom } falls

## Told in words: moves as a screen reader says them, and the answers to commands typed in
## the move box. Each command-words-* lists the words that type a command (English's always
## work too).

told-move = { $kingdom }'s { $piece } from { $from } to { $to }
told-move-takes = { $kingdom }'s { $piece } from { $from } takes { $owner }'s { $taken } on { $to }; { $owner } has lost { $lost }
told-passes = { $kingdom } passes
told-concedes = { $kingdom } concedes
command-words-last = last
command-words-where = where
command-words-what = what
command-words-attacks = attacks attackers
command-words-defends = defends defenders guards
command-words-attacked = attacked threats
command-words-moves = moves
command-words-standings = standings score
command-words-turn = turn
command-words-hint = hint
command-words-undo = undo
command-words-concede = concede resign
command-words-help = help commands
told-needs-point = "{ $command }" asks about a point: type it after, as in "{ $command } k4".
told-needs-subject = "{ $command }" asks about a kingdom or a piece: type it after, as in "{ $command } Chu" or "{ $command } general".
told-needs-cursor = Show the board's cursor ({ $key }) on a point first.
told-no-moves = No move has been made yet.
told-last = { $count ->
    [one] The last move
   *[other] The last { $count } moves
}: { $moves }.
told-piece-on = { $kingdom }'s { $piece } on { $point }
told-where-kingdom = { $kingdom } has { $count ->
    [one] one piece
   *[other] { $count } pieces
}: { $pieces }.
told-where-none = { $kingdom } has no pieces on the board.
told-where-piece = { $kingdom }'s { $piece }: { $points }.
told-where-piece-none = { $kingdom } has no { $piece } on the board.
told-emperor = { $point }: the Emperor, who never moves and is never taken.
told-stands = { $what }.
told-empty = { $point } is empty.
told-attackers = { $point } is attacked by { $attackers }.
told-attackers-none = Nothing attacks { $point }.
told-defenders = { $point } is guarded by { $defenders }.
told-defenders-none = Nothing of { $kingdom } guards { $point }.
told-attacked-piece = the { $piece } on { $point }, by { $by }
told-attacked = { $count ->
    [one] One of { $kingdom }'s pieces is attacked
   *[other] { $count } of { $kingdom }'s pieces are attacked
}: { $pieces }.
told-attacked-none = None of { $kingdom }'s pieces is attacked.
told-moves-takes = { $point } (taking { $owner }'s { $piece })
told-moves = { $what } can go to { $count ->
    [one] one point
   *[other] { $count } points
}: { $points }.
told-moves-none = { $what } cannot move.
told-moves-not-now = { $what } moves on its own turn; it is { $kingdom }'s turn.
told-standing = { $kingdom }: { $standing }, { $army } pieces, { $captures } taken
told-turn = Move { $ply }: { $kingdom } to move.
told-over = The game is over.
told-new-game = A new game on the board.
told-taken-back = Taken back: move { $ply } is to be played again.
told-your-turn = Your move, { $kingdom }: move { $ply }.
told-won = { $kingdom } { $how } and wins the game.
cursor-hidden = The board's cursor is hidden.
cursor-can-go = The selected stone can go to { $point }: Enter moves it there.
cursor-selected = It is selected.
told-help = Type a move as the move list writes it (c10h15), or ask: last (the last round), last 3, where Chu, where general, what j10, attacks k4, defends k4, attacked, moves c10, standings, turn; or hint, undo, concede.
told-help-keys = Keys: { $cursor } shows the board's cursor (arrows walk it, { $next } and { $previous } go from stone to stone, Enter selects and moves); { $last } the last round, { $standings } standings, { $turn } turn, { $where } where your General is, { $attacks } attacks, { $defends } defends, { $moves } moves; { $hint } hint, { $undo } undo, { $concede } concede, { $typing } type, { $help } this help.

## How pieces move (the piece card and the Rules window)

how-ranged-up-to = 1 to { $points } points along a line or a diagonal.
how-ranged-exactly = Exactly { $points } points along a line or a diagonal, over empty points.
how-general = Any distance along a line or a diagonal. Losing it loses the kingdom.
how-chancellor = Any distance along a line.
how-diplomat = Any distance along a diagonal.
how-cannon = Any distance along a line onto empty points; captures only by jumping exactly one piece (any piece, the Emperor too) onto the first piece behind it.
how-cannon-own-screen = Any distance along a line onto empty points; captures only by jumping exactly one piece of its own kingdom (not the Emperor) onto the first piece behind it.
how-go-between = Any distance along a line or a diagonal onto empty points; never captures and is never captured.
how-dagger = One point diagonally.
how-swordsman = One point along a line.
how-knight-up-to = One point along a line (which must be empty), then 1 to 3 points diagonally outward, stopping at the first piece.
how-knight-exactly = One point along a line (which must be empty), then exactly 3 points diagonally outward over empty points.
card-where = { $kingdom } · on { $point }
card-moves-now = { $count ->
    [0] No move now
    [one] { $count } move now
   *[other] { $count } moves now
}
card-diagram = On an empty board, as these rules play it. 周: the Emperor.

## The Rules window

rules-title = Rules
rules-this-game = This game
rules-played = Rules: { $rules }.
rules-preset-named = the “{ $preset }” preset
rules-custom = custom options
rules-turns = Seven kingdoms move in turn, counter-clockwise from Qin in the west. The Emperor (周) in the centre never moves and is never captured; he blocks lines and knights, and a cannon may jump him.
rules-turns-own-screen = Seven kingdoms move in turn, counter-clockwise from Qin in the west. The Emperor (周) in the centre never moves and is never captured; he blocks lines and knights, and no cannon may jump him.
rules-no-check = There is no check: nothing forces you to protect an attacked General.
rules-how-kingdoms-fall = How kingdoms fall
rules-captures = Every piece taken is a capture for the taker and a loss for its owner.
rules-beaten-at = A kingdom is beaten when its General is captured, or when its losses reach { $losses }.
rules-victor-most-pieces = The victor is the kingdom that took its General; otherwise the kingdom still in the game that captured most of its pieces.
rules-victor-most-captures = The victor is the kingdom that took its General; otherwise the kingdom still in the game with the most captures of all.
rules-army-removed = Its remaining army leaves the board.
rules-army-transferred = Its remaining army goes to the victor and takes the victor's colour.
rules-army-as-captures = Its remaining army goes to the victor, takes the victor's colour and counts as the victor's captures.
rules-pass = A kingdom with no legal move passes.
rules-ally = Taking a piece of an ally (a kingdom of the same player) makes the ally forfeit: all its pieces leave the board. The game asks first.
rules-how-to-win = How to win
rules-goal-generals = capture two Generals
rules-goal-kingdoms = beat two kingdoms (be the victor of two)
rules-win-goal = First, { $goal }.
rules-win-captures = Or capture { $goal } pieces (a player's kingdoms count together).
rules-win-last = Or be the last player left in the game.
rules-goal-ends-game = Under these rules, reaching a goal ends the game: whoever reached it, the player with the most captures wins.
capture-goal-more-than = more than { $count }
capture-goal-or-more = { $count } or more
rules-pieces = The pieces
rules-presets = The presets
rules-presets-intro = The sources read the 1206 text differently; each preset is one reading.
rules-whole = The whole rules, with the choices made where the sources are silent: docs/rules.md.
table-ranged = archer, crossbowman
table-ranged-up-to = up to 4, 5
table-ranged-exactly = exactly 4, 5
table-knight = knight's diagonal
table-knight-up-to = 1 to 3
table-knight-exactly = exactly 3
table-beaten-at = beaten at losses
table-victor = victor without the General
table-victor-most-pieces = most of its pieces
table-victor-most-captures = most captures
table-army = beaten army
table-army-removed = removed
table-army-transferred = transferred
table-army-as-captures = transferred, as captures
table-kingdom-goal = kingdom goal
table-goal-generals = 2 Generals
table-goal-kingdoms = 2 kingdoms
table-capture-goal = capture goal
table-cannon-screen = cannon captures over
table-cannon-any = any piece
table-cannon-own = its own pieces
table-goal-reached = goal reached
table-reacher-wins = its reacher wins
table-most-captures-win = most captures win

## Saving, loading, sharing

save-title = Save game
save-name = Name
save-replaces = Replaces the save of that name.
save-button = Save
saved-as = Saved as “{ $name }”
save-deleted = Deleted “{ $name }”
save-error-no-home = No home directory to save games in; set { $variable } to a folder
save-error-off = Saving is off in this session.
save-error-empty-name = Give the save a name
save-error-name-too-long = A save name has at most { $count } characters
save-error-leading-dot = A save name cannot start with a dot
save-error-bad-character = A save name cannot contain “{ $character }”
save-error-io-save = Could not save to { $path }: { $why }
save-error-io-autosave = Could not autosave to { $path }: { $why }
save-error-io-delete = Could not delete { $path }: { $why }
save-error-io-read = Could not read { $path }: { $why }
save-error-unreadable = { $path }: { $why }
load-title = Load game
load-folder = Saved games in { $path }
load-reading = Reading the saved games…
load-none = No saved games yet.
load-finished = finished
load-in-play = { $count } kingdoms in play
load-summary = { $when }{ $preset } · { $moves } · { $state }
load-unreadable = { $when }cannot be read
load-keep = Keep
load-delete-it = Delete it
load-delete = Delete
load-button = Load
save-loaded = Loaded “{ $name }”: { $count ->
    [one] { $count } move
   *[other] { $count } moves
}
position-imported = Position imported
game-imported = Game imported: { $count ->
    [one] { $count } move
   *[other] { $count } moves
}
import-position-refused = Position not imported: { $why }
import-game-refused = Game not imported: { $why }
import-error-empty = paste a position first (one line of 7K FEN)
import-error-not-one-line = a position is one line of FEN; for a start position with moves, import a game
import-error-no-start = the text has no start position (a line of 7K FEN)
import-error-rules = line { $line }: { $why }
import-error-start = { $why }
import-error-start-line = line { $line }: { $why }
import-error-move = line { $line } (“{ $text }”): { $why }
share-title = Import and export
share-export = Export
share-copy-position = Copy position (FEN)
share-copy-position-hint = The position shown on the board
share-copy-game = Copy game as text
share-download = Download as a file
share-open-file = Open a file…
share-file-unreadable = The file could not be read: { $why }
share-import = Import
share-import-hint = Paste a position (one line of 7K FEN) or a game (its start FEN, then one move per line). It replaces the game in progress; the rules and seats stay unless the game text names a preset.
share-paste-hint = { $key } to paste
share-start-position = Start from this position
share-load-game = Load this game
resume-title = Welcome back
resume-unfinished = Your last game was not finished.
resume-summary = { $preset } · { $moves } · { $state }
resume-saved = Saved { $when }
resume-button = Resume
resume-afresh = Start afresh
resume-unreadable = The last game could not be restored ({ $why }); the file is kept as { $path }

## The move list

moves-title = Moves
move-list-passes = passes
move-list-concedes = concedes
moves-first = The start (Home)
moves-back = One move back ({ $key })
moves-forward = One move forward ({ $key })
moves-live = The game now (End)
moves-undo = Undo
moves-undo-hint = Take back the last move ({ $key })
moves-redo = Redo
moves-redo-hint = Play it again ({ $key })
moves-report = Report
moves-report-hint = How the game went: each kingdom's chances and material move by move, falls, captures, turning points
report-title = Game report
report-making = Working out the report…
report-chances = Chances (%)
report-material = Material
report-moves = moves
report-kingdom = Kingdom
report-took = Took
report-lost = Lost
report-hints = Hints
report-standing = Standing
report-turning-points = Turning points (click to see the position)
report-turning-point = Move { $ply }: { $kingdom } { $swing }%
report-turning-point-hint = { $mover } played { $mv }
review-making-started = Reviewing every move…
review-making = Reviewing every move… { $percent } %
review-waiting = The server is reviewing the game…
review-failed = The game could not be reviewed: { $why }
review-mistakes = Mistakes (searched move by move)
review-no-mistakes = No mistakes found.
review-inaccuracy = Inaccuracy
review-mistake = Mistake
review-blunder = Blunder
review-allowed = Let the General fall
review-general-taken = General taken
review-mistake-line = Move { $ply } · { $kingdom }: { $kind } (−{ $loss } %)
review-mistake-hint = Played { $played }; the engine's best: { $best }
review-taken-hint = { $mover } played { $played }
practice-start = Learn from your mistakes ({ $count })
practice-start-hint = Replay the positions before your worst moves, and find better ones.
practice-none = No mistakes or blunders of yours to learn from in this game.
practice-heading = Learn from your mistakes · { $n } of { $total }
practice-question = Move { $ply }, { $kingdom } to move. You played { $played } ({ $kind }): find a better move.
practice-judging = Judging { $mv }…
practice-found-best = Found: { $mv } is the engine's best move, keeping { $chance } %.
practice-found = Good move: { $mv } keeps { $chance } %. The engine's best, { $best }, keeps { $best_chance } %.
practice-missed = { $mv } keeps { $chance } %; the best keeps { $best_chance } %. Try another move.
practice-unjudged = { $mv } could not be judged. Try another move.
practice-hint = Hint
practice-hint-text = Hint: move the { $piece } on { $point }.
practice-solution = Show the solution
practice-solution-text = The best move: { $best }, keeping { $chance } %.
practice-next = Next mistake
practice-finish = Finish
practice-finished = Done: you found { $found } of { $total } better moves.
practice-leave = Back to the game
puzzle-heading = Puzzle · { $theme } · rated { $rating }
puzzle-daily-heading = The day's puzzle · { $theme } · rated { $rating }
puzzle-your-rating = Your puzzle rating: { $rating }
puzzle-theme-general-hunt = a General hunted
puzzle-theme-general-saved = a General saved
puzzle-theme-cannon-screen = the cannon's screen
puzzle-theme-knight-leg = the knight's leg
puzzle-theme-decisive-capture = a capture that decides
puzzle-theme-quiet-move = a quiet move
puzzle-question = { $kingdom } to move. One move alone wins here: find it.
puzzle-found = Right: { $mv } is the one move.
puzzle-missed = Not { $mv }: one other move does far better. Try again.
puzzle-solution-text = The one move: { $best }.
puzzle-rating-moved = Your puzzle rating: { $before } → { $after }.
puzzle-rating-kept = Tried before: your puzzle rating stays { $rating }.
puzzle-finished = No puzzles left here: you solved { $found } of { $total }.
puzzle-next = Next puzzle
puzzle-copy-link = Copy the link
puzzle-copy-link-hint = A link that opens this puzzle (its name: { $name }).
puzzle-copy-name = Copy its name
puzzle-copy-name-hint = { $name }: the page opens it with ?puzzle={ $name }, the game with --puzzle { $name }.
puzzle-copied = Copied
puzzle-none = No puzzles here.
puzzle-unknown = There is no such puzzle.
puzzles-title = Puzzles
puzzles-intro = Positions from real games where one move alone wins. Your first try at each moves your puzzle rating ({ $rating }).
puzzles-daily = The day's puzzle
puzzles-for-you = Puzzles for you
lesson-puzzles = Puzzles on this ({ $count })
online-puzzles = Puzzles from this server's games
online-puzzles-intro = Positions from the games played here where one move alone wins; your first try at each is rated by the server.
online-puzzles-rating = Your puzzle rating here: { $rating }
online-clubs = Clubs
online-clubs-intro = People who play together again: your clubs, and others to find.
online-club-line = { $members ->
        [one] 1 member
       *[other] { $members } members
    } · { $place }
online-club-online = online
online-club-open = open to anyone
online-club-by-request = by request
online-club-owner = owner
online-club-organiser = organiser
online-club-member = member
online-club-asking = asking to join
online-clubs-search = Part of a club's name
online-clubs-find = Find
online-club-new = A new club
online-club-name = Its name
online-club-description = What it is (may be left empty)
online-club-by-request-choice = Members by request (an organiser lets each in)
online-club-create = Make the club
online-club-join = Join
online-club-ask = Ask to join
online-club-leave = Leave
online-club-news-wanted = Tell me its news
online-club-playing = playing now
online-club-let-in = Let in
online-club-remove = Remove
online-club-make-organiser = Make organiser
online-club-make-member = Make member
online-club-news-hint = News for the members
online-club-post = Post
online-club-news-line = { $by }: { $text }
online-club-tables = The club's tables
online-club-evenings = Evenings: { $list }
online-club-news = { $club }: { $text } ({ $by })
online-evenings = Club evenings ({ $count })
online-evenings-intro = Your clubs' evenings: say you come, and at the time you are seated at a table of seven with the members present.
online-evenings-none = No evening is planned in your clubs.
online-evening-play = { $pace }, { $level } computers, seated { $seating }
online-evening-coming = { $count } coming: { $names }
online-evening-planned = planned
online-evening-playing = playing now
online-evening-over = over
online-evening-cancelled = called off
online-evening-come = I come
online-evening-not = I cannot come
online-evening-come-late = Join now
online-evening-open = Open my game
online-evening-calendar = Add to calendar
online-evening-calendar-saved = The evening is in { $file }: open it to add it to your calendar.
online-evening-calendar-failed = The calendar file could not be written: { $why }
online-evening-cancel = Call off
online-evening-new = New evening
online-evening-date-hint = YYYY-MM-DD
online-evening-time-hint = HH:MM
online-evening-by-rating = by rating
online-evening-at-random = at random
online-evening-set = Set the evening
online-evening-bad-time = Write the date as YYYY-MM-DD and the time as HH:MM.
online-evening-seated = The evening of { $club } begins: your table is on the board.
online-evening-seated-title = { $club } plays
online-evening-table = Table { $n }: { $people }
online-tournaments = Tournaments ({ $count })
online-tournaments-intro = Swiss tournaments by correspondence and live arenas, public or of your clubs: join one, and a table is found for you as each round or game comes.
online-tournaments-none = No tournament is open to you now.
online-tournament-swiss = Swiss
online-tournament-arena = Arena
online-tournament-play = { $format }, { $pace }
online-tournament-listed = { $play } · starts { $starts } · { $players } of { $most } players
online-tournament-entering = to start
online-tournament-playing = under way
online-tournament-over = over
online-tournament-show = Standings
online-tournament-hide = Close
online-tournament-join = Join
online-tournament-leave = Leave
online-tournament-round = round { $round } of { $rounds }
online-tournament-minutes = { $minutes } minutes
online-tournament-ends = Ends { $when }
online-tournament-winners = Won by { $names }
online-tournament-nobody = Nobody has joined yet.
online-tournament-place = Place
online-tournament-player = Player
online-tournament-points = Points
online-tournament-games = Games
online-tournament-firsts = Firsts
online-tournament-tie-breaks = Points by place: a point for each seat you finish ahead of, half for each you tie with. Equal points: first places, then the points of those you met.
online-tournament-your-games = Your games
online-tournament-game = Game { $n }: { $result }
online-tournament-result = place { $place }, { $points } points
online-tournament-under-way = under way
online-tournament-left = { $name } (left)
online-tournament-streak = { $name } (streak { $streak })
online-tournament-seated = { $name }: you are seated at a table; it is on the board.
online-tournament-seated-title = { $name }: your table
online-tournament-new = New tournament
online-tournament-name-hint = Its name
online-tournament-rounds-unit = rounds
online-tournament-minutes-unit = minutes
online-tournament-set = Set the tournament
moves-replay = Replay
moves-replaying = Replaying…
moves-replay-hint = Play the marked moves again on the board ({ $key })
moves-since-your-turn = { $count ->
    [one] { $count } move since your last turn
   *[other] { $count } moves since your last turn
}
moves-looking-back = Looking back: after move { $shown } of { $count }
moves-none = No moves yet

## The kingdoms: turn strip and standings

colour-white = white
colour-red = red
colour-orange = orange
colour-blue = blue
colour-green = green
colour-purple = purple
colour-black = black
standing-in-game = in the game
standing-empty = empty
standing-general-taken = General taken by { $victor }
standing-beaten = beaten by { $victor }
standing-forfeited = forfeited (attacked by ally { $ally })
standing-conceded = conceded
standing-conceded-to = conceded (to { $victor })
computer-level = { $level } computer
chip-hint = { $kingdom } ({ $colour }) — { $standing }
kingdoms-title = Kingdoms
preset-custom = custom
kingdoms-summary-generals = { $preset }: out at { $losses } losses; win: 2 Generals or { $captures } captures
kingdoms-summary-kingdoms = { $preset }: out at { $losses } losses; win: 2 kingdoms or { $captures } captures
kingdoms-kingdom = Kingdom
kingdoms-played-by = Played by
kingdoms-took = Took
kingdoms-lost = Lost
kingdoms-left = Left
kingdoms-goal = Goal
kingdoms-left-hint = { $kingdom } falls after { $count ->
    [one] { $count } more loss
   *[other] { $count } more losses
}
kingdoms-goal-hint-generals = Generals taken, out of 2; pieces captured, out of { $captures }. Counted for the player, over all the kingdoms they hold.
kingdoms-goal-hint-kingdoms = Kingdoms beaten, out of 2; pieces captured, out of { $captures }. Counted for the player, over all the kingdoms they hold.

## Why a click or a move did nothing

refusal-animating = Wait until the last move has been shown
refusal-game-over = The game is over
refusal-reviewing = You are looking back: go back to the game ({ $key }) to play
refusal-computer = { $kingdom } is played by the computer
refusal-dialog = First answer whether to resume the last game
refusal-ally-question = Answer the question about attacking your ally first
refusal-outdated = The game moved on before this move was played
refusal-nowhere = This { $piece } has nowhere to go
refusal-not-yours = That is { $owner }'s { $piece }; { $mover } is to move
refusal-emperor = The Emperor never moves
refusal-pick = Pick one of { $kingdom }'s stones first
refusal-unreadable = “{ $text }” is not a move: type the point the stone leaves and the point it goes to, as the move list writes them (c10h15), or -- to pass.
refusal-concede-typed = To concede, use Concede… in the toolbar: it asks first.
movebox-title = Type a move
movebox-hint = c10h15
movebox-help = Enter plays · Up and Down choose · Tab completes · Esc closes · "help": what else you can ask
movebox-none = No legal move begins so.
movebox-more = … and { $count } more
illegal-no-piece = There is no piece on { $point }
illegal-not-yours = The { $piece } on that point belongs to { $owner }, but { $mover } is to move
illegal-unreachable = { $owner }'s { $piece } cannot move { $mv }
illegal-pass-not-allowed = Passing is allowed only without any legal move
illegal-must-pass = The kingdom to move has no legal move and must pass
nothing-to-undo = there is nothing to undo
nothing-to-redo = there is nothing to redo

## Warnings and the hand-off banner

danger-attacker = { $owner }'s { $piece } on { $point }
danger-general = Your General on { $point } is attacked by { $attackers }
danger-separator = {"; "}
hand-off-banner = { $kingdom } — { $player }, your move

## Settings

settings-title = Settings
settings-language = Language
settings-pace = Pace
pace-calm = Calm
pace-calm-hint = A pause before each computer's move, and full glides: follow every move as it is made.
pace-brisk = Brisk
pace-brisk-hint = A short pause and quicker glides.
pace-instant = Instant
pace-instant-hint = The computers' moves appear as soon as they are found; the arrows and Replay show what happened since your last turn.
settings-camera = Camera
settings-people = People
settings-hand-off = Name who takes the board (hand-off banner)
settings-sound = Sound
settings-size = Interface size
settings-reset-size = Reset
settings-colours = Colours
settings-traditional = Traditional
settings-colour-blind = Colour-blind safe
settings-colour-blind-hint = Kingdom colours kept apart for red–green colour blindness (the rim emblems tell them apart as well)
settings-seeing = Seeing
settings-high-contrast = High-contrast board
settings-high-contrast-hint = A plain pale board with a black grid, stones outlined in black, and the interface's text in full white
settings-large-characters = Larger characters on the stones
settings-window = Window
settings-fullscreen = Fullscreen ({ $key })
settings-kept-in = Kept for next time in { $path }
settings-not-kept = Not kept: this session leaves the settings alone
settings-no-home = Settings will not be kept: there is no home directory.
settings-not-saved = Settings could not be saved to { $path }: { $why }
settings-unreadable = the settings file could not be read: { $why }
settings-damaged = the settings file is damaged: { $why }
settings-newer = the settings file is from a newer version of the game (settings version { $version }; this game reads up to { $supported })
settings-reset = Settings reset to the defaults: { $problem }.
settings-reset-kept = Settings reset to the defaults: { $problem }. The old file was kept as { $path }.

## Playing across machines
host-bad-port = The port is a number from 0 to 65535.
join-name = Your name
join-connect = Connect
join-need-name = Give your name.
online-left = Disconnected; the board keeps the game as it stands.
keys-title = Your keys
keys-line = Each server knows you by the key it gave you on your first visit. Copy your keys to use them in another browser or in the desktop game (Online…, Your keys, Import), and keep a copy: without it, a cleared browser meets every server as a stranger.
keys-copy = Copy my keys
keys-copied = { $count ->
    [one] The key for one server is copied.
   *[other] The keys for { $count } servers are copied.
}
keys-paste-hint = Paste keys copied elsewhere
keys-import = Import these keys
keys-imported = { $count ->
    [0] Nothing new: these keys were already here.
    [one] One server's key imported.
   *[other] { $count } servers' keys imported.
}
keys-not-keys = These are not Qiguo keys: { $why }
keys-unreadable = The keys could not be read or kept: { $why }
invite-no-open-seat = No seat is open in this game any more: you are watching it.
invite-choose-title = Take a seat
invite-choose-line = Game { $code } has several open seats. Which kingdom will you play?
invite-choose-watch = Close this to only watch.
online-invited = You are invited to a game: choose the name the other players will see, then Connect.
online-link = Invitation link: { $link }
online-link-hint = Anyone who opens this link in a browser (or in Qiguo's Online… window) takes an open seat.
page-title-turn = { $kingdom } to move · move { $number }
page-title-your-move = Your move · { $kingdom }
page-title-won = { $kingdom } won
page-title-lesson = { $lesson } · { $step }/{ $steps }

## The page's document for a screen reader, beside the canvas.

reader-canvas = The board of Qiguo: seven kingdoms on a 19 by 19 go board around the Emperor, drawn in 3D. The game in words follows the board.
reader-title = Qiguo in words
reader-field = A move or a command (help lists them)
reader-said = What is played and said
reader-status = The game now
reader-moves = The moves
reader-windows = The game's windows, as they read
reader-window-open = Window: { $title }
reader-standing = { $kingdom }: { $army } pieces, { $captures } taken
reader-kind-button = button
reader-kind-checkbox = check box
reader-kind-option = option
reader-kind-field = field
reader-kind-slider = slider
reader-kind-list = list
reader-kind-link = link
reader-kind-heading = heading
reader-checked = checked
reader-unchecked = not checked
reader-chosen = chosen
online-no-host-in-page = A page cannot host a game: connect to the server that served it.
online-failed = Could not connect: { $why }
online-refused = The server refused: { $why }
online-behind = This server speaks a newer protocol (version { $server }; this Qiguo { $client }): it still answers, but update Qiguo before it stops.
online-take-back-asked = Asked the other players to take the moves back.
online-server-decides = In an online game the server decides that.
online-leave-first = An online game is on the board: leave it first (Online… → Leave this game).
seat-yours = { $name } (you)
seat-remote = { $name } (connected)
seat-gone = { $name } (gone)
seat-open = open
talk-title = Table talk
talk-title-lines = Table talk ({ $count })
talk-empty = Nothing said yet. What you write here, everyone at the table reads.
talk-hint = A word to the table…
talk-say = Say
talk-mute = Click to mute { $name } (in every game, for you only)
talk-muted = { $name } is muted
talk-unmute = Unmute
talk-watching = Watchers read the table talk; the players write it.
online-holidays = Holidays
online-holidays-hint = While you are away (UTC days, to the last one), your correspondence games wait for you: no stand-in plays and no kingdom passes for you. Live games are not affected.
online-away-until = away until { $date }
online-away-go = Go away until
online-away-change = Change the last day
online-back = Back now
online-holidays-used = { $used } of { $allowance } days taken in { $year }
online-mail = E-mail
online-mail-hint = Be told by e-mail when it is your move in a correspondence game and you are not here, a day before your turn runs out, and when a game ends. The address is confirmed through a link sent to it first.
online-mail-not-offered = This server sends no e-mail.
online-mail-address = you@example.org
online-mail-digest = One e-mail a day
online-mail-digest-hint = One e-mail a day listing the games waiting for you, rather than one each turn.
online-mail-save = Save
online-mail-remove = Remove
online-mail-unconfirmed = Waiting for you to confirm { $address }: follow the link sent there.
online-mail-confirmed-line = E-mail goes to { $address }.
online-mail-sent-link = A link to confirm the address has been sent to it.
online-mail-confirmed = Your e-mail address is confirmed.
seat-away = { $seat } · away until { $date }
take-back-title = Take back?
take-back-allow = Take it back
take-back-refuse = Refuse
refusal-remote = { $kingdom } is played on another machine
refusal-sent-to-server = The move was sent to the server.

## Lessons
menu-learn = Learn
menu-learn-hint = Short lessons on the board: every piece, the Emperor, how kingdoms fall, alliances, winning
menu-welcome = Welcome
menu-welcome-hint = The welcome card: learn, play against the computer, together or online
refusal-off-lesson = { $mv } is allowed in a game, but not what this lesson asks for: follow the gold marks.
refusal-lesson-done = This step is done: go on with the lesson card.
refusal-exercise-done = This question is answered: go on with the card beside the board.
lessons-title = Learn to play
lessons-intro = Each lesson sets a few stones on the board and asks for a move or two. You play Qin; the gold rings show what to move and where.
lessons-done = done
lessons-numbered = { $n }. { $title }
lessons-progress = { $done } of { $total } lessons finished
lesson-heading = Lesson { $n } of { $total }
lesson-step = Step { $n } of { $total }
lesson-finished = Lesson finished.
lesson-next = Next lesson
lesson-all-done = Back to the game
lesson-retry = Retry
lesson-retry-hint = Start this step again
lesson-skip = Skip
lesson-skip-hint = Go on without doing this step
lesson-you = You
lesson-list = Lessons
lesson-leave = Leave
lesson-leave-hint = Back to the game that was on the board
welcome-title = Welcome to Qiguo
welcome-intro = The Game of the Seven Kingdoms (七國象棋), printed in 1206: seven armies on a go board around the Emperor. What would you like to do?
welcome-play-now = Play now, with people
welcome-play-now-line = A game at once on this server: computers hold the other kingdoms until people who play now take them over.
welcome-pace = Pace:
welcome-learn = Learn the pieces
welcome-learn-line = Short lessons on the board, one piece at a time, then how a game is won.
welcome-computers = Play against the computer
welcome-computers-line = You play { $kingdom }; six computer players take the other kingdoms.
welcome-level = Computers:
welcome-together = Play together at this screen
welcome-together-line = Choose the rules, the seats and who plays; the board turns to each player in turn.
welcome-online = Play online
welcome-online-line = Play with friends on other machines, live or a move a day.
welcome-later = This card comes back with Welcome in the toolbar; the lessons are under Learn.

lesson-general = The General
lesson-general-1 = Your General (將) goes any distance along a line or a diagonal. Move him to the gold ring.
lesson-general-1-done = Four points along the diagonal, in one move.
lesson-general-1-why = A General goes straight: along a line or a diagonal, never round a corner.
lesson-general-2 = Take the marked stone of Chu: a piece captures by ending its move on an enemy stone.
lesson-general-2-done = Taken. A move stops at the first stone in its way, and may end there only by taking it.
lesson-general-2-why = The stone on g18 is in the way: nothing jumps over it (but the cannon, which you will meet).
lesson-chancellor = The Chancellor
lesson-chancellor-1 = The Chancellor (偏) goes any distance along a line, like a rook. Take the marked stone.
lesson-chancellor-1-done = Eight points in one move: the Chancellor is the army's long reach.
lesson-chancellor-1-why = The Chancellor never moves diagonally.
lesson-diplomat = The Diplomat
lesson-diplomat-1 = The Diplomat (裨) goes any distance along a diagonal, like a bishop. Take the marked stone.
lesson-diplomat-1-done = Right. Together with the Chancellor, the Diplomat covers what the other cannot.
lesson-diplomat-1-why = The Diplomat moves only along diagonals.
lesson-cannon = The Cannon
lesson-cannon-1 = The Cannon (砲) moves like the Chancellor onto empty points, but it captures only by jumping exactly one stone, the screen. Take the marked stone over your swordsman.
lesson-cannon-1-done = Over the screen and onto the stone beyond. (Under the ludii rules only a stone of your own kingdom can be a screen.)
lesson-cannon-1-why = Nothing stands between the cannon and that stone: without a screen a cannon cannot capture.
lesson-cannon-2 = After the screen, the cannon takes the first stone it meets. Take the marked one.
lesson-cannon-2-done = The first stone beyond the screen was the one to take.
lesson-cannon-2-why = A cannon jumps exactly one stone: two stand between it and the stone on c15.
lesson-go-between = The Go-between
lesson-go-between-1 = The Go-between (行人) goes any distance along a line or diagonal onto empty points. It never captures and can never be captured. Move it to the gold ring.
lesson-go-between-1-done = A go-between can stand anywhere in safety: nothing can take it, so it is a useful block and screen.
lesson-go-between-1-why = A go-between can neither take nor be taken, not even another go-between.
lesson-archer = The Archer
lesson-archer-1 = The Archer (弓) goes one to four points along a line or diagonal. Take the marked stone, four points away.
lesson-archer-1-done = Four points: its longest shot. (Under the leventhal and ludii rules it goes exactly four.)
lesson-archer-1-why = That is five points: an Archer goes four at most.
lesson-crossbowman = The Crossbowman
lesson-crossbowman-1 = The Crossbowman (弩) goes one to five points along a line or diagonal. Take the marked stone.
lesson-crossbowman-1-done = Five points along the diagonal. (Under the leventhal and ludii rules it goes exactly five.)
lesson-crossbowman-1-why = That is six points: a Crossbowman goes five at most.
lesson-dagger = The Dagger soldier
lesson-dagger-1 = The Dagger soldier (刀) steps one point diagonally. Take the marked stone.
lesson-dagger-1-done = One step on the diagonal. Each kingdom has two of them.
lesson-dagger-1-why = A Dagger soldier steps diagonally only.
lesson-swordsman = The Swordsman
lesson-swordsman-1 = The Swordsman (劍) steps one point along a line. Take the marked stone.
lesson-swordsman-1-done = One step along a line. Each kingdom has four swordsmen.
lesson-swordsman-1-why = A Swordsman steps along a line only, never diagonally.
lesson-knight = The Knight
lesson-knight-1 = The Knight (騎) steps one point along a line (its leg), then one to three points diagonally outward. Move it to the gold ring.
lesson-knight-1-done = One step east, then three on the diagonal. (Under the leventhal and ludii rules it always goes the full three.)
lesson-knight-1-why = A knight does not go straight: one step, then diagonally outward.
lesson-knight-2 = Your swordsman stands on the knight's leg to the north. Take the marked stone that the knight can still reach.
lesson-knight-2-done = The leg to the east was free, so the knight could go that way.
lesson-knight-2-why = To reach g9 the knight steps north first, and your swordsman stands there: the knight is blocked at its leg.
lesson-emperor = The Emperor's point
lesson-emperor-1 = The Emperor (周) sits on j10. He never moves and is never taken; no line and no knight's leg passes him, but a cannon may jump him. Take the marked stone with the cannon.
lesson-emperor-1-done = The Emperor served as the cannon's screen.
lesson-emperor-1-why = The Emperor blocks the way: no move passes through his point or stops on it.
lesson-fall = A kingdom falls
lesson-fall-1 = A kingdom is beaten when its General is taken, or when it has lost more than ten stones (ten under the leventhal, elephantchess and ludii rules). Take Chu's General.
lesson-fall-1-done = Chu is beaten. Under these rules (classic) its remaining stones leave the board.
lesson-fall-1-why = Take the General: that beats his kingdom at once.
lesson-fall-2 = The same, under the wikipedia rules: take Chu's General again and watch its army.
lesson-fall-2-done = Under the wikipedia and elephantchess rules a beaten kingdom's army goes over to its victor: Chu's stones are now yours.
lesson-alliance = Alliances
lesson-alliance-1 = You hold Qin and Han: they are allies. Take the marked stone of Chu, your enemy.
lesson-alliance-1-done = Good: Chu is the enemy.
lesson-alliance-1-why = That is Han's stone, your ally's: taking it would cost you Han.
lesson-alliance-2 = Attacking an ally is allowed, but it forfeits the ally: all its stones leave the board. Take Han's marked stone and answer the question.
lesson-alliance-2-done = Han is out of the game, credited to nobody. The game asks first because this is rarely what anyone wants.
lesson-winning = Winning
lesson-winning-1 = Qin has already taken Chu's General (see the moves). Taking two Generals wins the game. Take Han's General.
lesson-winning-1-done = Two Generals: Qin wins. Thirty captures win too, and so does being the last kingdom left; with the wikipedia and elephantchess rules it is two kingdoms beaten.
lesson-winning-1-why = Han's General on h12 stands in the way: a move stops at the first stone.

# Online games through a Qiguo server (the Online… window).
menu-online = Online…
menu-online-hint = Your online games, new ones, and games to join or watch with a code
online-title = Online
online-intro = Play through a Qiguo server: this window's own, for players on this network, or one elsewhere.
online-intro-page = Play through the Qiguo server this page came from: choose the name others will see.
online-notify-ask = Tell me when it is my move
online-notify-ask-hint = The browser asks once whether this page may notify you, even while its tab is in the background.
online-own-server = This computer's server
online-port = Port (TCP)
online-lan = Other machines on this network may connect
online-lan-plain = Unencrypted: only on a network you trust. Open this port in the firewall.
online-plain-trusted = A network I trust (ws:// is unencrypted: my key crosses it readable)
online-other-server = A server elsewhere (ws://… or wss://…)
online-bad-url = A server's address starts with ws:// or wss://, such as wss://qiguo.example.org:7206.
online-disconnect = Disconnect
online-leave-game = Leave this game
online-leave-game-hint = The board keeps the game as it stands, played at this screen; on the server it goes on without you
online-server = Server { $address }
online-connected-as = signed in as { $name }
online-connecting = connecting…
online-lost = the server cannot be reached; trying again…
online-my-games = My games
online-refresh = Refresh
online-no-games = No games yet: create one below, or join one with a code.
online-finished = Finished
online-reading = Reading…
online-no-finished = No finished games yet.
online-won = { $kingdom } won: { $how }
online-rematch = Rematch
online-rematch-hint = A new game with the same rules, seats and pace: the same players are seated where they were.
online-rematch-offered = { $name } offers a rematch: it is in My games.
online-page = page { $page }
online-players = Players
online-to-move = To move
online-since = Since
online-deadline = Due by
online-over = over
online-your-move = your move ({ $kingdom })
online-on-board = on the board
online-open = Open
online-unknown-time = ?
online-quick = Play now
online-quick-intro = A game at once: computers play the other kingdoms, and people who play now at the same pace take them over, one each.
online-quick-brisk = Brisk
online-quick-brisk-hint = Live: 30 seconds a move before a stand-in plays for you. Easy computers.
online-quick-calm = Calm
online-quick-calm-hint = Live: 3 minutes a move. Medium computers.
online-quick-daily = Daily
online-quick-daily-hint = A move a day; an overdue move is played by a stand-in. Medium computers.
online-quick-relaxed = Relaxed
online-quick-relaxed-hint = A move every three days; an overdue move is played by a stand-in. Hard computers.
online-quick-play = Play now
lobby-title = Lobby
lobby-online = { $online } online
lobby-pace-count = { $pace }: { $playing } playing, { $waiting } waiting
lobby-tables = Open tables ({ $count })
lobby-no-tables = No open table: create one below, or play now.
lobby-table-seats = { $seated } of { $people }
lobby-table-line = { $pace } · { $level } computers · { $rated }
lobby-live = live, { $seconds } s a move
lobby-days = { $days } days a move
lobby-rated = rated
lobby-unrated = not rated
lobby-sit = Sit down
lobby-leave = Get up
lobby-games = Games to watch ({ $count })
lobby-game-line = { $pace } · { $moves } moves
lobby-watch = Watch
lobby-new-table = A new table:
lobby-new-club-table = A new table for the club:
lobby-people-suffix = { " " }people
lobby-fill-within = Waits
lobby-minutes-suffix = { " " }min
lobby-unfilled-computers = then computers fill it
lobby-unfilled-close = then it closes
lobby-create = Create
lobby-seated = You sit at the table: { $seated } of { $people } seats taken. The game starts when it fills.
lobby-started = Your table is full: its game starts.
lobby-started-title = Your table in Qiguo
lobby-closed = Your table closed: it did not fill in time.
online-ratings = Ratings
online-ratings-live = Live
online-ratings-correspondence = By correspondence
online-ratings-yours = Your rating: { $rating } ({ $games } rated games)
online-ratings-provisional = Provisional (shown with ?) until about a dozen games have told enough.
online-ratings-last = Last game: { $place } of { $sides }, { $change }
online-ratings-none = Nobody is rated at this pace yet: quick games are rated.
online-new-game = New online game
online-new-game-intro = The board's rules and seating; who plays each seat:
online-seat-me = me
online-live = Live
online-correspondence = By correspondence
online-days =  days a move
online-overdue-pass = an overdue move passes (else a computer plays it)
online-create = Create
online-created = Game created. Its invitation code: { $code }
online-with-code = With a code
online-join = Join
online-watch = Watch
online-watching = Watching
online-code = Invitation code: { $code }
online-code-hint = Send it to the friends who are to play the open seats (or watch)
online-server-says = The server says: { $why }
online-seated = { $name } took a seat.
online-quick-new = A new game against computers: you play { $kingdom }, and people who play now at this pace will take the computers' kingdoms over.
online-quick-took-over = You took { $kingdom } over from a computer after { $moves } moves: it has taken { $captures } and lost { $losses }; { $to_move } is to move.
online-replaced = { $name } was away too long: a computer plays { $kingdom } now, and the next person to play now takes it over.
seat-reliability = { $seat } · finishes { $percent }%
seat-conduct-hint = Right-click: block or report this player
seat-block = Block: never seated together again, their talk hidden
seat-unblock = Unblock
seat-report = Report to the server's operator:
seat-report-leaves = Leaves or stalls games
seat-report-talk = Abusive table talk
seat-report-unfair = Plays unfairly (teaming, kingmaking)
seat-blocked = Blocked: you will not be seated together again, and their talk is hidden.
seat-unblocked = Unblocked.
seat-reported = Reported: the server's operator will read it.
online-take-back-refused = The take-back was refused; nothing changed.
online-your-turn-elsewhere = Another of your online games waits for your move.
online-notify-title = Your move in Qiguo
online-notify-body = { $kingdom } to move, in the game of { $players }.
online-nothing-to-take-back = None of your moves can be taken back.
online-take-back-question = { $name } asks to take back the moves from move { $ply } on.

## Why an online server refused (each code of the protocol's refusals)
server-refusal-hello-first = The server expected this window to introduce itself first.
server-refusal-already-signed-in = Already signed in on this connection.
server-refusal-version = This server speaks protocol version { $server } and this Qiguo { $client }: update Qiguo (in a browser, reload the page).
server-refusal-bad-frame = The server could not read what was sent ({ $why }).
server-refusal-wrong-key = The server does not know this player, or the key is wrong.
server-refusal-name-empty = A player needs a name.
server-refusal-name-too-long = A name has at most { $max } characters.
server-refusal-name-characters = A name may not hold control, format or separator characters.
server-refusal-days = A game by correspondence has { $min } to { $max } days a move, not { $days }.
server-refusal-wait = A live game waits { $min } to { $max } seconds for a player, not { $seconds }.
server-refusal-no-person = A game needs at least one seat for a person.
server-refusal-seat-plans = { $plans } seats were planned for { $players } players.
server-refusal-bad-start = This game cannot be started online: { $why }
server-refusal-no-game = No such game of yours.
server-refusal-no-code = No game has this invitation code.
server-refusal-no-such-seat = { $kingdom } has no player in this game.
server-refusal-seat-not-open = The seat of { $kingdom } is not open.
server-refusal-seat-taken = Someone else took that seat just now.
server-refusal-invitation-expired = The game is over: its invitation has expired.
server-refusal-game-over = The game is over.
server-refusal-not-a-move = That is not a move ({ $why }).
server-refusal-illegal-move = { $mv } cannot be played now.
server-refusal-moved-on = The game moved on meanwhile (it has { $has } moves): the board is read again.
server-refusal-not-your-turn = It is { $kingdom }'s turn, not one of your kingdoms'.
server-refusal-take-back-own-only = Only one of your own moves can be taken back.
server-refusal-take-back-pending = A take-back is already being asked.
server-refusal-no-take-back = No take-back is being asked.
server-refusal-too-many-connections = You have { $max } connections open to this server already: close one first.
server-refusal-too-many-games = You have { $max } games in progress: finish one before beginning another.
server-refusal-too-many-quick-games = You play { $max } quick games already: finish one before beginning another.
server-refusal-too-many-reviews-asked = You wait for { $max } reviews already: ask again when one is ready.
server-refusal-no-such-puzzle = There is no puzzle { $id } on this server.
server-refusal-no-puzzles = This server has no puzzles yet: they come from its reviewed games.
server-refusal-club-name-empty = A club needs a name.
server-refusal-club-name-too-long = A club's name has at most { $max } characters.
server-refusal-club-text = Nothing to post.
server-refusal-club-text-too-long = At most { $max } characters.
server-refusal-club-name-taken = There is already a club called { $name }.
server-refusal-no-such-club = There is no club called { $name } on this server.
server-refusal-not-in-club = You are not a member of { $name }.
server-refusal-not-club-organiser = Only { $name }'s organisers may do that.
server-refusal-not-club-owner = Only { $name }'s owner may do that.
server-refusal-no-club-member = { $player } is not in the club.
server-refusal-club-owner-stays = A club's owner stays in it.
server-refusal-club-full = The club is full ({ $max } members).
server-refusal-club-blocked = You cannot join this club.
server-refusal-too-many-clubs = You own { $max } clubs already.
server-refusal-evening-past = That time has passed: set the evening in the future.
server-refusal-evening-too-far = An evening is set at most { $days } days ahead.
server-refusal-evening-not-live = An evening plays at a live pace: brisk or calm.
server-refusal-no-such-evening = There is no such evening.
server-refusal-evening-over = That evening is over.
server-refusal-too-many-evenings = The club has { $max } evenings planned already.
server-refusal-tournament-name = A tournament's name has 1 to { $max } characters.
server-refusal-tournament-name-taken = Another tournament has that name.
server-refusal-no-such-tournament = There is no such tournament.
server-refusal-tournament-past = That time has passed: a tournament starts in the future.
server-refusal-tournament-too-far = A tournament starts at most { $days } days ahead.
server-refusal-tournament-pace = A Swiss plays by correspondence (daily or relaxed), an arena live (brisk or calm).
server-refusal-tournament-rounds = A Swiss has 1 to { $max } rounds.
server-refusal-arena-minutes = An arena lasts { $min } to { $max } minutes.
server-refusal-tournament-players = A tournament takes { $min } to { $max } players.
server-refusal-tournament-by-operator = Public tournaments are set by the server's operator: name a club you organise.
server-refusal-tournament-full = The tournament is full ({ $most } players).
server-refusal-tournament-over = That tournament is over.
server-refusal-not-in-tournament = You are not in that tournament.
server-refusal-no-player-named = Nobody called { $name } plays here.
server-refusal-name-taken = The name { $name } is taken on this server: choose another.
server-refusal-yourself = You cannot block or report yourself.
server-refusal-table-blocked = You cannot sit at that table.
server-refusal-barred = The server's operator barred you from play.
server-refusal-left-lately = You left rated games lately: you may play now again in { $minutes } min.
server-refusal-table-people = A table has { $min } to { $max } seats for people, not { $people }.
server-refusal-table-wait = A table waits { $min } to { $max } minutes to fill, not { $minutes }.
server-refusal-rating-range = A rating range from { $min } to { $max } takes nobody.
server-refusal-table-level = A table's computers play at Easy, Medium or Hard.
server-refusal-no-table = That table is not open any more.
server-refusal-table-full = That table is full.
server-refusal-outside-rating-range = That table takes players rated { $min } to { $max }; your rating is { $rating }.
server-refusal-too-many-tables = You sit at { $max } open tables already: get up from one first.
server-refusal-slow-down = Too many requests of this kind lately: try again in { $seconds } s.
server-refusal-bad-date = { $date } is not a day to come: write it YYYY-MM-DD, today or later.
server-refusal-holiday-days = That holiday takes { $asked } days of { $year }, and { $left } are left.
server-refusal-not-over = The game is not over yet: a rematch follows a finished game.
server-refusal-talk-empty = There is nothing to say.
server-refusal-talk-too-long = A line of table talk has at most { $max } characters.
server-refusal-nobody-to-mute = That seat has no other player to mute.
server-refusal-talk-barred = The server's operator has barred you from table talk.
server-refusal-no-mail = This server sends no e-mail.
server-refusal-bad-address = { $address } is not an e-mail address.
server-refusal-no-push = This server sends no notifications to devices.
server-refusal-bad-subscription = This browser's notifications cannot be sent by this server.
server-refusal-link-expired = This sign-in link has expired or was used. Join under a name, or open the game from a newer e-mail.
server-refusal-try-again = The server could not do it just now; try again.
server-refusal-shutting-down = The server is shutting down; try again in a moment.

# The bar of sheets along a small screen's bottom (a phone's).
sheet-menu = Menu
sheet-talk = Talk
