# Det servern skriver till spelare med e-post, och sidorna dess länkar öppnar, på svenska.

kingdom-qin = Qin
kingdom-chu = Chu
kingdom-han = Han
kingdom-qi = Qi
kingdom-wei = Wei
kingdom-zhao = Zhao
kingdom-yan = Yan

victory =
    { $victory ->
        [generals] tog två generaler
        [kingdoms] slog två riken
        [captures] nådde målet för tagna pjäser
        [last_kingdom] är den sista som är kvar i spelet
        [early_end] hade tagit flest pjäser när spelet avslutades
       *[most_captures] hade tagit flest pjäser när ett mål uppnåddes
    }

mail-greeting = Hej { $name },
mail-sign-off = Qiguo, de sju rikenas spel ({ $server })
mail-footer =
    Du får det här brevet för att du gav adressen till Qiguo-servern på { $server }.
    Öppna den här länken för att inte få fler: { $unsubscribe }

mail-confirm-subject = Bekräfta din e-postadress för Qiguo
mail-confirm-body =
    Någon, troligen du, gav den här adressen till Qiguo-servern på { $server } för { $name }.
    Bekräfta den genom att öppna länken inom { $days } dagar för att få veta med e-post när det är ditt drag:

    { $link }

    Om det inte var du, gör ingenting: inga andra brev skickas hit.

mail-turn-subject = Ditt drag som { $kingdom } i Qiguo
mail-turn-body =
    Det är ditt drag som { $kingdom } i partiet mellan { $players }.
    Drag { $moves } är gjort; din tur går ut { $deadline } (UTC).

    Öppna partiet: { $link }

mail-reminder-subject = En dag kvar för ditt drag som { $kingdom }
mail-reminder-body =
    Din tur som { $kingdom } i partiet mellan { $players } går ut { $deadline } (UTC).
    Därefter spelar en dator den åt dig.

    Öppna partiet: { $link }

mail-end-subject = Ditt Qiguo-parti är slut: { $result }
mail-end-won = { $kingdom } { $victory }
mail-end-nobody = ingen vann
mail-end-body =
    Partiet mellan { $players } är slut efter { $moves } drag: { $result }.
    Dina riken: { $yours }.

    Se partiet och dess protokoll: { $link }

mail-evening-subject = { $club } spelar { $time } (UTC)
mail-evening-body =
    Du sa att du kommer till { $club }s kväll. Den börjar { $time } (UTC).
    Var ansluten då så får du en plats vid ett bord för sju: { $link }

mail-review-subject = Ditt Qiguo-parti är genomgånget
mail-review-body =
    Varje drag i partiet mellan { $players } ({ $moves } drag) är genomräknat: dina misstag är
    markerade i dess rapport, och du kan lära av dem på brädet.

    Se genomgången: { $link }

mail-digest-subject =
    { $count ->
        [one] Ett parti väntar på ditt drag i Qiguo
       *[other] { $count } partier väntar på ditt drag i Qiguo
    }
mail-digest-body = De här partierna väntar på ditt drag:
mail-digest-line = { $kingdom } i partiet mellan { $players }, till { $deadline } (UTC): { $link }

page-confirm-title = Bekräfta din e-postadress
page-confirm-text = Bekräfta { $address } för { $name } på den här Qiguo-servern?
page-confirm-button = Bekräfta
page-confirm-done = { $address } är bekräftad. Du får veta med e-post när det är ditt drag.
page-unsubscribe-title = Ingen mer e-post
page-unsubscribe-text = Sluta skicka e-post till { $address } från den här Qiguo-servern?
page-unsubscribe-button = Sluta skicka
page-unsubscribe-done = Ingen mer e-post skickas till { $address }. Du kan ge en adress igen under Mina partier.
page-expired = Den här länken är redan använd eller för gammal.

## Notiser till en spelares enheter (Web Push): rubrikerna är breven ämnesrader; under dem en rad.
push-turn-body = Partiet mellan { $players }, efter drag { $moves }.
push-reminder-body = Partiet mellan { $players }: din tur går ut { $deadline } (UTC).
push-end-body = Partiet mellan { $players } är slut efter { $moves } drag.
push-review-body = Partiet mellan { $players }: varje drag genomräknat, dina misstag markerade.
push-club-news-title = { $club }: nyheter
push-club-news-body = { $text } ({ $by })
push-evening-title = { $club } spelar snart
push-evening-body = Kvällen börjar { $time } (UTC): var ansluten för att få en plats.
