# Qiguos gränssnitt på svenska. Varje meddelande måste finnas, med samma variabler, i en.ftl
# och zh-Hant.ftl (testerna kontrollerar det).

## Namn

kingdom-qin = Qin
kingdom-chu = Chu
kingdom-han = Han
kingdom-qi = Qi
kingdom-wei = Wei
kingdom-zhao = Zhao
kingdom-yan = Yan
piece-general = General
piece-chancellor = Kansler
piece-diplomat = Diplomat
piece-cannon = Kanon
piece-go-between = Sändebud
piece-archer = Bågskytt
piece-crossbowman = Armborstskytt
piece-dagger = Dolk
piece-swordsman = Svärdsman
piece-knight = Ryttare
level-random = Slump
level-easy = Lätt
level-medium = Medel
level-hard = Svår
player-person = Person
preset-classic = Texten från 1206: slagen vid 11 förluster, arméer tas bort; vinn med 2 generaler eller 30 slag
preset-wikipedia = Arméer byter ägare; vinn genom att slå 2 riken eller ta fler än 30
preset-elephantchess = elephantchess.io: slagen vid 10 förluster, arméer och deras pjäser går till segraren
preset-leventhal = Exakta räckvidder för bågskytt, armborst och ryttare; slagen vid 10 förluster, arméer tas bort
preset-ludii = Ludiis beskrivning: som leventhal, men en kanon tar bara över egna pjäser, och ett uppnått mål avslutar spelet – flest tagna pjäser vinner
victory-generals = tog två generaler
victory-kingdoms = slog två riken
victory-captures = nådde målet för tagna pjäser
victory-last = är den sista som är kvar i spelet
victory-early-end = hade tagit flest pjäser när spelet avslutades
victory-most-captures = hade tagit flest pjäser när ett mål uppnåddes
list-separator = {", "}
list-and = { $first } och { $last }
moves-count = { $count } drag
player-unnamed = —

## Verktygsfältet

menu-new-game = Nytt parti…
menu-save = Spara…
menu-load = Öppna…
saving-off = Sparande är avstängt den här gången
save-default-name = Parti { $when }
menu-share = Dela…
menu-share-hint = Kopiera eller klistra in en ställning eller ett helt parti som text
menu-rules = Regler
menu-rules-hint = Reglerna för det här partiet, och hur varianterna skiljer sig ({ $key })
menu-hint = Tips
menu-hint-hint = Draget som Svår skulle spela, för den som står på tur ({ $key })
hint-searching = Letar efter ett tips…
hint-shown = Tips: { $mv } — { $reason }
hint-takes-general = tar { $kingdom }s General
hint-takes = tar { $kingdom }s { $piece }
hint-saves = räddar din { $piece }
hint-position = bäst för ställningen
menu-concede = Ge upp…
menu-concede-hint = Ge upp riket som står på tur: datorerna (eller de andra) spelar vidare utan det
concede-title = Ge upp { $kingdom }?
concede-explain = Riket lämnar spelet som ett som faller utan slag: det rike som tagit flest av dess pjäser (enligt dessa regler) räknas som segrare, om något har förtjänat det.
concede-ends = Då är spelet slut: { $kingdom } vinner genom { $how }.
concede-undo = Skrivs i protokollet som ett drag; { $key } tar tillbaka det.
concede-confirm = Ge upp { $kingdom }
finish-title = Ingen människa är kvar i spelet
finish-explain = Alla människors riken är ute. Datorerna kan spela spelet till slut, eller så börjar du ett nytt.
finish-instant = Låt datorerna spela klart (direkt)
finish-watch = Titta i detta tempo
menu-settings = Inställningar…
menu-settings-hint = Kamera, ljud, språk, gränssnittets storlek, helskärm — sparas till nästa gång
view-label = Vy
view-from-behind = Bakom { $kingdom } (tangent { $key })
view-top = Ovan
view-top-hint = Från ovan (tangent { $key })
follow-turn = Vänd mot riket som drar
toolbar-threats = Hot
threats-hint = Skugga punkterna de andra rikena anfaller och markera dina stenar de kan ta (tangent { $key })
hand-off = Överlämning
hand-off-hint = Visa rike och spelare när brädet går över till en annan person
sound-mute = Tyst
mute-hint = Stäng av ljudet (tangent { $key })
sound-volume = Volym

## Statusraden

toast-move-refused = { $mv }: { $reason }
status-won = { $kingdom } vinner: { $how }
status-reviewing = Tillbakablick i partiet · { $count } drag spelade
status-reviewing-keys = { $back } och { $forward } stegar · { $first }: början · { $live } eller { $escape }: tillbaka till partiet
status-thinking = Drag { $ply } · { $kingdom } ({ $level } dator) tänker…
status-to-move = Drag { $ply } · { $kingdom } ({ $player }) drar
status-mouse-keys = klicka på en sten · { $preview }: förhandsvisa valfri sten · { $typing }: skriv ett drag · högerdra: vrid · hjulet: zooma

## Nytt parti

new-game-title = Nytt parti
new-game-rules = Regler
new-game-seating = Platser
seating-seven = 7 spelare, ett rike var
seating-six = 6 spelare (1206: Qins spelare tar ett till)
seating-five = 5 spelare (… och Chus)
seating-four = 4 spelare (… och Qis)
seating-three = 3 spelare (Qins tar två till)
seating-present = Bara spelarna som är här
seating-two-players = 2 spelare (Savard: Chu, Qi, Zhao mot Han, Wei, Yan)
new-game-also-takes = { $kingdom }s spelare tar också
new-game-and = … och
new-game-empty = Tomma (ingen armé): { $kingdoms }
new-game-start = Börja
player-default-name = Spelare { $number }
seating-error-two-players = Ett parti behöver minst två spelare
seating-error-held = { $kingdom } är redan taget: { $player }s spelare kan inte ta det

## Anfall på en bundsförvant, partiets slut

ally-title = Anfalla din bundsförvant { $ally }?
ally-question = { $ally } hålls av samma spelare som { $mover }. Om du anfaller det ger { $ally } upp: alla dess pjäser lämnar brädet och ingen får dem tillgodo (若擊與國，則盡撤去與國之棋).
ally-attack = Anfall
dialog-cancel = Avbryt
game-over-title = Partiet är slut
game-over-wins = { $kingdom } vinner
game-over-how = { $player } { $how }.
game-over-captures = { $count } tagna
game-over-report = Partirapport
game-over-look = Titta på brädet
game-over-take-back = Ta tillbaka sista draget

## Drag i ord

move-passes = { $ply }. { $kingdom } står över
move-concedes = { $ply }. { $kingdom } ger upp
move-army-leaves = . Dess armé lämnar brädet
move-sentence = { $ply }. { $kingdom } { $piece } { $from }–{ $to }
move-takes = , tar { $owner }s { $piece } { $characters }
move-forfeits = . { $kingdom } ger upp, anfallet av sin bundsförvant { $ally }
move-beaten-army-to = . { $kingdom } är slaget; dess armé går till { $victor }
move-beaten-army-leaves = . { $kingdom } är slaget av { $victor }; dess armé lämnar brädet
fall-short-forfeits = { $kingdom } ger upp
fall-short-to = { $kingdom } till { $victor }
fall-short-falls = { $kingdom } faller

## Hur pjäserna går (pjäskortet och regelfönstret)

how-ranged-up-to = 1 till { $points } punkter längs en linje eller en diagonal.
how-ranged-exactly = Exakt { $points } punkter längs en linje eller en diagonal, över tomma punkter.
how-general = Valfritt avstånd längs en linje eller en diagonal. Förlorar man den förlorar man riket.
how-chancellor = Valfritt avstånd längs en linje.
how-diplomat = Valfritt avstånd längs en diagonal.
how-cannon = Valfritt avstånd längs en linje till tomma punkter; tar bara genom att hoppa över exakt en pjäs (vilken som helst, även kejsaren) till den första pjäsen bakom den.
how-cannon-own-screen = Valfritt avstånd längs en linje till tomma punkter; tar bara genom att hoppa över exakt en pjäs från det egna riket (inte kejsaren) till den första pjäsen bakom den.
how-go-between = Valfritt avstånd längs en linje eller en diagonal till tomma punkter; tar aldrig och blir aldrig tagen.
how-dagger = En punkt diagonalt.
how-swordsman = En punkt längs en linje.
how-knight-up-to = En punkt längs en linje (som måste vara tom), sedan 1 till 3 punkter diagonalt utåt, och stannar vid första pjäsen.
how-knight-exactly = En punkt längs en linje (som måste vara tom), sedan exakt 3 punkter diagonalt utåt över tomma punkter.
card-where = { $kingdom } · på { $point }
card-moves-now = { $count ->
    [0] Inget drag nu
   *[other] { $count } drag nu
}
card-diagram = På ett tomt bräde, som de här reglerna spelar. 周: kejsaren.

## Regelfönstret

rules-title = Regler
rules-this-game = Det här partiet
rules-played = Regler: { $rules }.
rules-preset-named = varianten ”{ $preset }”
rules-custom = egna val
rules-turns = Sju riken drar i tur och ordning, moturs från Qin i väster. Kejsaren (周) i mitten flyttar aldrig och tas aldrig; han blockerar linjer och ryttare, och en kanon får hoppa över honom.
rules-turns-own-screen = Sju riken drar i tur och ordning, moturs från Qin i väster. Kejsaren (周) i mitten flyttar aldrig och tas aldrig; han blockerar linjer och ryttare, och ingen kanon får hoppa över honom.
rules-no-check = Det finns ingen schack: inget tvingar dig att skydda en anfallen general.
rules-how-kingdoms-fall = Hur riken faller
rules-captures = Varje tagen pjäs räknas som ett slag för den som tar och en förlust för ägaren.
rules-beaten-at = Ett rike är slaget när dess general tas, eller när dess förluster når { $losses }.
rules-victor-most-pieces = Segraren är riket som tog dess general; annars det rike, fortfarande med i spelet, som tog flest av dess pjäser.
rules-victor-most-captures = Segraren är riket som tog dess general; annars det rike, fortfarande med i spelet, som tagit flest pjäser av alla.
rules-army-removed = Dess återstående armé lämnar brädet.
rules-army-transferred = Dess återstående armé går till segraren och får segrarens färg.
rules-army-as-captures = Dess återstående armé går till segraren, får segrarens färg och räknas som segrarens tagna pjäser.
rules-pass = Ett rike utan lagligt drag står över.
rules-ally = Att ta en pjäs från en bundsförvant (ett rike som samma spelare håller) får bundsförvanten att ge upp: alla dess pjäser lämnar brädet. Spelet frågar först.
rules-how-to-win = Hur man vinner
rules-goal-generals = ta två generaler
rules-goal-kingdoms = slå två riken (vara segrare över två)
rules-win-goal = Först att { $goal }.
rules-win-captures = Eller ta { $goal } pjäser (en spelares riken räknas tillsammans).
rules-win-last = Eller vara den sista spelaren kvar i spelet.
rules-goal-ends-game = Med dessa regler avslutar ett uppnått mål spelet: vem som än nådde det vinner spelaren som tagit flest pjäser.
capture-goal-more-than = fler än { $count }
capture-goal-or-more = { $count } eller fler
rules-pieces = Pjäserna
rules-presets = Varianterna
rules-presets-intro = Källorna läser texten från 1206 olika; varje variant är en läsning.
rules-whole = Hela reglerna, med de val som gjorts där källorna tiger: docs/rules.md.
table-ranged = bågskytt, armborstskytt
table-ranged-up-to = upp till 4, 5
table-ranged-exactly = exakt 4, 5
table-knight = ryttarens diagonal
table-knight-up-to = 1 till 3
table-knight-exactly = exakt 3
table-beaten-at = slagen vid förluster
table-victor = segrare utan generalen
table-victor-most-pieces = flest av dess pjäser
table-victor-most-captures = flest tagna
table-army = slagen armé
table-army-removed = tas bort
table-army-transferred = går över
table-army-as-captures = går över, som tagna
table-kingdom-goal = mål i riken
table-goal-generals = 2 generaler
table-goal-kingdoms = 2 riken
table-capture-goal = mål i tagna pjäser
table-cannon-screen = kanonen tar över
table-cannon-any = vilken pjäs som helst
table-cannon-own = egna pjäser
table-goal-reached = mål uppnått
table-reacher-wins = den som nådde det vinner
table-most-captures-win = flest tagna vinner

## Spara, öppna, dela

save-title = Spara partiet
save-name = Namn
save-replaces = Ersätter sparningen med det namnet.
save-button = Spara
saved-as = Sparat som ”{ $name }”
save-deleted = Tog bort ”{ $name }”
save-error-no-home = Ingen hemkatalog att spara partier i; sätt { $variable } till en mapp
save-error-off = Sparande är avstängt den här gången.
save-error-empty-name = Ge sparningen ett namn
save-error-name-too-long = Ett namn har högst { $count } tecken
save-error-leading-dot = Ett namn kan inte börja med en punkt
save-error-bad-character = Ett namn kan inte innehålla ”{ $character }”
save-error-io-save = Kunde inte spara till { $path }: { $why }
save-error-io-autosave = Kunde inte autospara till { $path }: { $why }
save-error-io-delete = Kunde inte ta bort { $path }: { $why }
save-error-io-read = Kunde inte läsa { $path }: { $why }
save-error-unreadable = { $path }: { $why }
load-title = Öppna parti
load-folder = Sparade partier i { $path }
load-reading = Läser de sparade partierna…
load-none = Inga sparade partier än.
load-finished = avslutat
load-in-play = { $count } riken kvar i spelet
load-summary = { $when }{ $preset } · { $moves } · { $state }
load-unreadable = { $when }kan inte läsas
load-keep = Behåll
load-delete-it = Ta bort det
load-delete = Ta bort
load-button = Öppna
save-loaded = Öppnade ”{ $name }”: { $count } drag
position-imported = Ställningen importerad
game-imported = Partiet importerat: { $count } drag
import-position-refused = Ställningen importerades inte: { $why }
import-game-refused = Partiet importerades inte: { $why }
import-error-empty = klistra in en ställning först (en rad 7K FEN)
import-error-not-one-line = en ställning är en rad FEN; för en startställning med drag, importera ett parti
import-error-no-start = texten har ingen startställning (en rad 7K FEN)
import-error-rules = rad { $line }: { $why }
import-error-start = { $why }
import-error-start-line = rad { $line }: { $why }
import-error-move = rad { $line } (”{ $text }”): { $why }
share-title = Importera och exportera
share-export = Exportera
share-copy-position = Kopiera ställningen (FEN)
share-copy-position-hint = Ställningen som visas på brädet
share-copy-game = Kopiera partiet som text
share-import = Importera
share-import-hint = Klistra in en ställning (en rad 7K FEN) eller ett parti (dess start-FEN, sedan ett drag per rad). Det ersätter partiet som pågår; regler och platser står kvar om inte partiets text anger en variant.
share-paste-hint = { $key } för att klistra in
share-start-position = Börja från den här ställningen
share-load-game = Öppna det här partiet
resume-title = Välkommen tillbaka
resume-unfinished = Ditt senaste parti blev inte färdigt.
resume-summary = { $preset } · { $moves } · { $state }
resume-saved = Sparat { $when }
resume-button = Fortsätt
resume-afresh = Börja om
resume-unreadable = Det senaste partiet kunde inte återställas ({ $why }); filen är sparad som { $path }

## Draglistan

moves-title = Drag
move-list-passes = står över
move-list-concedes = ger upp
moves-first = Början (Home)
moves-back = Ett drag bakåt ({ $key })
moves-forward = Ett drag framåt ({ $key })
moves-live = Partiet nu (End)
moves-undo = Ångra
moves-undo-hint = Ta tillbaka sista draget ({ $key })
moves-redo = Gör om
moves-redo-hint = Spela det igen ({ $key })
moves-report = Rapport
moves-report-hint = Hur partiet gick: varje rikes chanser och material drag för drag, fall, slag, vändpunkter
report-title = Partirapport
report-making = Räknar fram rapporten…
report-chances = Chanser (%)
report-material = Material
report-moves = drag
report-fell = { $kingdom } faller
report-kingdom = Rike
report-took = Tog
report-lost = Förlorade
report-hints = Tips
report-standing = Läge
report-turning-points = Vändpunkter (klicka för att se ställningen)
report-turning-point = Drag { $ply }: { $kingdom } { $swing } %
report-turning-point-hint = { $mover } spelade { $mv }
moves-replay = Repris
moves-replaying = Spelar upp…
moves-replay-hint = Spela de markerade dragen igen på brädet ({ $key })
moves-since-your-turn = { $count } drag sedan din senaste tur
moves-looking-back = Tillbakablick: efter drag { $shown } av { $count }
moves-none = Inga drag än

## Rikena: turordningen och ställningen

colour-white = vit
colour-red = röd
colour-orange = orange
colour-blue = blå
colour-green = grön
colour-purple = lila
colour-black = svart
standing-in-game = med i spelet
standing-empty = tomt
standing-general-taken = generalen tagen av { $victor }
standing-beaten = slaget av { $victor }
standing-forfeited = gav upp (anfallet av bundsförvanten { $ally })
standing-conceded = gav upp
standing-conceded-to = gav upp (till { $victor })
computer-level = { $level } dator
chip-hint = { $kingdom } ({ $colour }) — { $standing }
kingdoms-title = Riken
preset-custom = egen
kingdoms-summary-generals = { $preset }: ute vid { $losses } förluster; vinst: 2 generaler eller { $captures } tagna
kingdoms-summary-kingdoms = { $preset }: ute vid { $losses } förluster; vinst: 2 riken eller { $captures } tagna
kingdoms-kingdom = Rike
kingdoms-played-by = Spelas av
kingdoms-took = Tog
kingdoms-lost = Förlorade
kingdoms-left = Kvar
kingdoms-goal = Mål
kingdoms-left-hint = { $kingdom } faller efter { $count ->
    [one] { $count } förlust till
   *[other] { $count } förluster till
}
kingdoms-goal-hint-generals = Tagna generaler, av 2; tagna pjäser, av { $captures }. Räknat för spelaren, över alla riken den håller.
kingdoms-goal-hint-kingdoms = Slagna riken, av 2; tagna pjäser, av { $captures }. Räknat för spelaren, över alla riken den håller.

## Varför ett klick eller drag inte gjorde något

refusal-animating = Vänta tills det senaste draget har visats
refusal-game-over = Partiet är slut
refusal-reviewing = Du tittar bakåt: gå tillbaka till partiet ({ $key }) för att spela
refusal-computer = { $kingdom } spelas av datorn
refusal-dialog = Svara först på om det senaste partiet ska fortsätta
refusal-ally-question = Svara först på frågan om att anfalla din bundsförvant
refusal-outdated = Partiet gick vidare innan draget spelades
refusal-nowhere = Den här pjäsen ({ $piece }) har ingenstans att gå
refusal-not-yours = Det är { $owner }s { $piece }; { $mover } drar
refusal-emperor = Kejsaren flyttar aldrig
refusal-pick = Välj först en av { $kingdom }s stenar
refusal-unreadable = ”{ $text }” är inget drag: skriv punkten pjäsen lämnar och punkten den går till, som draglistan skriver dem (c10h15), eller -- för att passa.
refusal-concede-typed = För att ge upp, använd Ge upp… i verktygsraden: den frågar först.
movebox-title = Skriv ett drag
movebox-hint = c10h15
movebox-help = Enter spelar · Upp och Ned väljer · Tab fyller i · Esc stänger
movebox-none = Inget lagligt drag börjar så.
movebox-more = … och { $count } till
illegal-no-piece = Det finns ingen pjäs på { $point }
illegal-not-yours = Pjäsen på den punkten ({ $piece }) tillhör { $owner }, men { $mover } drar
illegal-unreachable = { $owner }s { $piece } kan inte dra { $mv }
illegal-pass-not-allowed = Man får bara stå över utan lagliga drag
illegal-must-pass = Riket som drar har inget lagligt drag och måste stå över
nothing-to-undo = det finns inget att ångra
nothing-to-redo = det finns inget att göra om

## Varningar och överlämningen

danger-attacker = { $owner }s { $piece } på { $point }
danger-general = Din general på { $point } anfalls av { $attackers }
danger-separator = {"; "}
hand-off-banner = { $kingdom } — { $player }, ditt drag

## Inställningar

settings-title = Inställningar
settings-language = Språk
settings-pace = Tempo
pace-calm = Lugnt
pace-calm-hint = En paus före varje datordrag och hela glidningar: följ varje drag medan det görs.
pace-brisk = Raskt
pace-brisk-hint = En kort paus och snabbare glidningar.
pace-instant = Direkt
pace-instant-hint = Datorernas drag syns så snart de är funna; pilarna och Repris visar vad som hänt sedan ditt senaste drag.
settings-camera = Kamera
settings-people = Spelare
settings-hand-off = Visa vem som tar över brädet (överlämning)
settings-sound = Ljud
settings-size = Gränssnittets storlek
settings-reset-size = Återställ
settings-colours = Färger
settings-traditional = Traditionella
settings-colour-blind = Färgblindsäkra
settings-colour-blind-hint = Rikenas färger hålls isär vid röd–grön färgblindhet (emblemen på kanten skiljer dem också åt)
settings-window = Fönster
settings-fullscreen = Helskärm ({ $key })
settings-kept-in = Sparas till nästa gång i { $path }
settings-not-kept = Sparas inte: den här gången lämnas inställningarna orörda
settings-no-home = Inställningarna sparas inte: det finns ingen hemkatalog.
settings-not-saved = Inställningarna kunde inte sparas till { $path }: { $why }
settings-unreadable = inställningsfilen kunde inte läsas: { $why }
settings-damaged = inställningsfilen är skadad: { $why }
settings-newer = inställningsfilen kommer från en nyare version av spelet (inställningsversion { $version }; det här spelet läser upp till { $supported })
settings-reset = Inställningarna återställdes: { $problem }.
settings-reset-kept = Inställningarna återställdes: { $problem }. Den gamla filen sparades som { $path }.

## Spel över nätverket
menu-host = Var värd…
menu-host-hint = Låt spelare på andra datorer gå med i det här partiet
menu-join = Gå med…
menu-join-hint = Spela i ett parti som en annan dator är värd för
host-title = Var värd för partiet
host-intro = Spelare på andra datorer tar de platser som står öppna; datorspelarna stannar i det här fönstret. Partiet sparas här efter varje drag.
host-port = Port (UDP)
host-lan = Andra datorer får gå med (öppna porten i brandväggen)
host-loopback = Bara den här datorn (för att prova)
host-seats = Platser
host-seat-here = här
host-seat-open = öppen
host-start = Starta
host-bad-port = Porten är ett tal från 0 till 65535.
join-title = Gå med i ett parti
join-address = Värdens adress
join-name = Ditt namn
join-connect = Anslut
join-bad-address = Ange värdens adress, till exempel 192.168.1.20:7206.
join-need-name = Ange ditt namn.
join-host = Värd: { $address }
join-connecting = Når värden…
join-choose = Välj dina riken bland de lediga:
join-no-free-seat = Ingen plats är ledig i partiet.
join-take = Ta platserna
join-leave = Lämna
online-hosting-on = Värd på { $address }
online-loopback-only = Bara den här datorn kan gå med.
online-link-playing = Med i partiet
online-link-lost = Värden går inte att nå; försöker igen…
online-stop = Sluta vara värd
online-hosting = Värd på { $address }: andra datorer kan gå med.
online-stopped-hosting = Slutade vara värd; partiet stannar på skärmen.
online-left = Lämnade partiet; brädet visar det som det står.
online-already = Redan uppkopplad: sluta vara värd eller lämna först.
online-failed = Kunde inte ansluta: { $why }
online-player-joined = { $name } gick med och spelar { $kingdoms }.
online-player-left = { $name } har gått; platserna väntar på hen.
online-joined = Med i partiet: du spelar { $kingdoms }.
online-out-of-step = värdens parti gick inte att spela upp här
online-taken-back = Värden tog tillbaka drag.
online-refused = Värden sa nej: { $why }
online-host-says = Värden säger: { $why }
online-other-version = värden kör en annan version av spelet
online-take-back-asked = Bad värden ta tillbaka draget.
online-not-in-game = Du är inte med i partiet än.
online-host-decides = I ett parti på nätet bestämmer värden det.
online-leave-first = Andra datorer delar partiet: sluta vara värd eller lämna först.
seat-here = { $name } (här)
seat-yours = { $name } (du)
seat-at-host = { $name } (hos värden)
seat-remote = { $name } (uppkopplad)
seat-gone = { $name } (borta)
seat-stand-in = { $level } dator för { $name }
seat-open = öppen
seat-give-back = Vänta på spelaren
seat-hand-over-hint = En spelare på en annan dator: låt datorn spela åt hen, eller ge tillbaka platsen
take-back-title = Ta tillbaka?
take-back-asked = { $name } ber att få ta tillbaka det senaste draget.
take-back-allow = Ta tillbaka
take-back-refuse = Neka
refusal-remote = { $kingdom } spelas på en annan dator
refusal-sent-to-host = Draget skickades till värden.
online-stop-hint = Spelarna på andra datorer släpps; partiet stannar på skärmen
join-leave-hint = Lämna värdens parti; brädet visar det som det står
online-link-choosing = Ansluten: välj dina riken
