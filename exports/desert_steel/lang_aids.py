"""The play aids in French (``--lang fr``): their sentences and the charts' modifier labels, in the
rulebook's words (rules-digest §8's glossary). Keys are the English texts of exports/desert_steel/aids.py."""
from __future__ import annotations

FR_AIDS: dict[str, str] = {
    # sequence of play
    "Each turn has three phases, in this order. No player goes first: card priority orders every action (§18.9).":
        "Chaque tour comprend trois phases, dans cet ordre. Aucun joueur ne joue en premier : la priorité des cartes "
        "ordonne chaque action (§18.9).",
    "<b>Reinforcement Phase</b> (§4.1, §5): the cards of formations arriving this turn join their owner's hand; they "
    "must be activated and enter this turn, by the road or edge the scenario names. Skipped on turn 1 (§18.9).":
        "<b>Phase des renforts</b> (§4.1, §5) : les cartes des formations qui arrivent ce tour rejoignent la main de "
        "leur propriétaire ; elles doivent être activées et entrer ce tour, par la route ou le bord que nomme le "
        "scénario. Sautée au tour 1 (§18.9).",
    "<b>Operations Phase</b> (§4.2, §6–§9, §12–§17): cards go on the stack, are interrupted and activated; the active "
    "units perform operations, until every card is played.":
        "<b>Phase des opérations</b> (§4.2, §6–§9, §12–§17) : les cartes vont sur la pile d'activation, sont "
        "interrompues et activées ; les unités actives effectuent des opérations, jusqu'à ce que toutes les cartes "
        "soient jouées.",
    "<b>Morale Phase</b> (§4.3): the eight steps below.": "<b>Phase du moral</b> (§4.3) : les huit étapes ci-dessous.",
    "Flip face up the non-suppressed units of non-shaken formations; unload every transported unit (§13.3).":
        "Retourner côté pile les unités non supprimées des formations non ébranlées ; débarquer toute unité "
        "transportée (§13.3).",
    "Formation checks: rally every shaken formation (compulsory), then check every formation that lost a unit this "
    "turn (§10.2).":
        "Tests de formation : rallier toute formation ébranlée (obligatoire), puis tester toute formation qui a perdu "
        "une unité ce tour (§10.2).",
    "Unit checks for suppressed units of non-shaken formations: success removes Suppressed, the unit stays flipped "
    "(§10.22).":
        "Tests d'unité des unités supprimées des formations non ébranlées : un succès retire le marqueur Supprimé, "
        "l'unité reste retournée (§10.22).",
    "Eliminate units over the stacking limits, owner's choice (§8.52).":
        "Éliminer les unités au-delà des limites d'empilement, au choix du propriétaire (§8.52).",
    "Remove Fired, Moved, Flash kill, Spotted and Fire zone markers; roll for each smoke marker (§17.4).":
        "Retirer les marqueurs Tiré, Bougé, Destruction éclair, Repéré et Zone de tir ; lancer un dé pour chaque "
        "marqueur de fumigènes (§17.4).",
    "Each combat formation's zone of operations: mark Separated units, unmark those back (§11).":
        "Zone d'opérations de chaque formation de combat : marquer les unités séparées, démarquer celles revenues "
        "(§11).",
    "Resolved and postponed raid cards under the deck; shuffle the raid deck (§16.1).":
        "Les cartes de raid résolues ou différées sous la pioche ; mélanger la pioche des raids (§16.1).",
    "Advance the game turn marker (§2.12).": "Avancer le marqueur du tour de jeu (§2.12).",
    # cards
    "Playing cards": "Jouer les cartes",
    "Every non-shaken combat card in hand must be played this phase; command cards are optional (§6.41).":
        "Toute carte de combat non ébranlée en main doit être jouée pendant cette phase ; les cartes de "
        "commandement sont facultatives (§6.41).",
    "When the stack is empty, the player holding the lowest-priority combat card (of both hands) plays it (§6.42).":
        "Quand la pile est vide, le joueur qui tient la carte de combat de plus basse priorité (des deux mains) la "
        "joue (§6.42).",
    "Before the top card activates, either player may interrupt it with a card of higher priority, laid on top; if "
    "both do, both cards are shown and only the higher one stays (§6.42). A player may interrupt his own card.":
        "Avant que la carte du dessus ne s'active, chaque joueur peut l'interrompre avec une carte de priorité plus "
        "haute, posée dessus ; si les deux le font, les deux cartes sont montrées et seule la plus haute reste "
        "(§6.42). Un joueur peut interrompre sa propre carte.",
    "When nobody interrupts, the top card activates: its face-up, non-suppressed units may operate; then the card is "
    "set aside and the card below is on top (§6.51).":
        "Si personne n'interrompt, la carte du dessus s'active : ses unités côté pile, non supprimées, peuvent "
        "opérer ; puis la carte est écartée et celle du dessous passe dessus (§6.51).",
    "An air-strike raid card interrupts any card, whatever its C3 (§16.22).":
        "Une carte de raid de bombardement aérien interrompt toute carte, quel que soit son C3 (§16.22).",
    "The better C3 letter (A > B > C > D > E).": "La meilleure lettre de C3 (A > B > C > D > E).",
    "Same C3: a command card beats a combat card.":
        "Même C3 : une carte de commandement l'emporte sur une carte de combat.",
    "Same C3, two combat cards: the better experience (Veteran > Seasoned > Green).":
        "Même C3, deux cartes de combat : la meilleure expérience (Vétéran > Aguerri > Bleu).",
    "Then the better nationality: {order}.": "Puis la meilleure nationalité : {order}.",
    "Allied and Italian": "Alliés et Italiens",
    "A command card may activate a subordinate already activated, or whose card is in hand or lower in the stack; "
    "only face-up units act (§6.54).":
        "Une carte de commandement peut activer une subordonnée déjà activée, ou dont la carte est en main ou plus "
        "bas dans la pile ; seules les unités côté pile agissent (§6.54).",
    "Options: <b>limited intelligence</b>, cards laid face down, only their C3 announced (§6.55); <b>limited "
    "interruption</b>, one attempt a card (§6.56).":
        "Options : <b>renseignement limité</b>, cartes posées face cachée, seul leur C3 annoncé (§6.55) ; "
        "<b>interruption limitée</b>, une tentative par carte (§6.56).",
    # operations
    "first move with {f} of the MP{d}, then fire; flip": "d'abord un mouvement avec {f} des PM{d}, puis le tir ; "
                                                          "retourner",
    "Entrenching marker, Entrenched after {n} turns{d}": "marqueur Retranchement en cours, Retranché après {n} "
                                                          "tours{d}",
    "Move": "Mouvement", "any": "toute unité", "Fire": "Tir", "any that can fire": "toute unité qui peut tirer",
    "hex to hex, paying the cost of each hex entered, up to the MP; flip":
        "d'hex en hex, en payant le coût de chaque hex où elle entre, jusqu'à ses PM ; retourner",
    "spot the target, then fire at it; flip": "repérer la cible, puis tirer dessus ; retourner",
    "Move and fire": "Tir en mouvement", "vehicles only": "véhicules seulement",
    "Anti-vehicle / anti-infantry fire": "Tir anti-véhicules / anti-infanterie",
    "fire with one factor, at the target of that kind": "tirer avec un seul facteur, sur une cible de ce type",
    "Indirect fire": "Tir indirect", "bold-boxed range": "portée à base grasse",
    "an observer of the formation spots; fire zone": "un observateur de la formation repère ; zone de tir",
    "Transport": "Transport", "carriers": "transporteurs",
    "load, move, unload in the Morale Phase": "embarquer, bouger, débarquer en Phase du moral",
    "Entrench": "Retranchement", "infantry, FO, artillery": "infanterie, OA, artillerie",
    "Close assault": "Assaut rapproché", "infantry": "infanterie",
    "morale check, move into a vehicle hex, fire": "test de moral, entrer dans un hex de véhicule, tirer",
    "Overrun": "Enfoncement", "vehicles": "véhicules",
    "enter an infantry hex in the open, fire at every unit":
        "entrer dans un hex d'infanterie à découvert, tirer sur chaque unité",
    "Engineer": "Génie", "engineers": "génie",
    "enter wire or a minefield, or clear it": "entrer dans des barbelés ou un champ de mines, ou les dégager",
    "An active unit performs one operation a turn, declared when it starts; it must finish before another unit "
    "starts (close assault aside); it is then flipped (§7–§7.2). Changing facing is free. Nothing is compulsory.":
        "Une unité active effectue une opération par tour, annoncée quand elle commence ; elle doit finir avant "
        "qu'une autre unité ne commence (sauf assaut rapproché) ; elle est ensuite retournée (§7–§7.2). Changer "
        "d'orientation est gratuit. Rien n'est obligatoire.",
    "A small {dagger} marks a value the rulebook does not print (it was reconstructed to fit the rules and every "
    "worked example): check it against the published charts.":
        "Un petit {dagger} marque une valeur que la règle n'imprime pas (reconstituée pour s'accorder aux règles et "
        "à chaque exemple) : vérifiez-la sur les tables publiées.",
    # counter key
    "front": "recto", "back": "verso", ": designation, facing arrow, nation": " : désignation, flèche "
                                                                              "d'orientation, nation",
    "designation · ★ spotter, T towed,": "désignation · ★ repérage, T tracté,",
    "CS close support, engineer sign": "CS soutien rapproché, signe du génie", "unit type": "type d'unité",
    "range (bold lower edge: indirect)": "portée (base grasse : indirect)", "· movement points": "· points de "
                                                                                                 "mouvement",
    "anti-vehicle – defense – anti-infantry": "anti-véhicules – défense – anti-infanterie",
    "• cannot fire; white defense:": "• ne peut tirer ; défense blanche :", "lightly armoured": "faiblement blindé",
    "upper box: anti-infantry range ({n}), §12.13": "case du haut : portée anti-infanterie ({n}), §12.13",
    "lower box: anti-vehicle range ({n}): fires at": "case du bas : portée anti-véhicules ({n}) : tire sur",
    "vehicles at range (Boys, bazooka)": "les véhicules à distance (Boys, bazooka)",
    "infantry with one box fires at vehicles": "l'infanterie à une case ne tire sur les véhicules",
    "only in its own hex (§12.13)": "que dans son propre hex (§12.13)",
    # terrain and movement
    "The pack has no terrain-effects table.": "Le paquet n'a pas de table des effets du terrain.",
    "Sand": "Sable", "Tan": "Beige", "Ochre": "Ocre", "Brown": "Brun", "level {n}": "niveau {n}",
    "rocky": "rocheux", "sandy": "sablonneux", "muddy": "boueux", "mountainous": "montagneux",
    "allowed": "autorisé", "not allowed (§13.41)": "interdit (§13.41)", "clear terrain": "terrain dégagé",
    "buildings: cover, block line of sight": "bâtiments : couvert, bloquent la ligne de visée",
    "1d6": "1d6", "Vehicle": "Véhicule", "Non-vehicle": "Non-véhicule", "Clear": "Dégagé", "Sandy": "Sablonneux",
    "Rocky": "Rocheux", "Muddy": "Boueux", "Mountainous": "Montagneux", "Building": "Bâtiment", "Track": "Piste",
    "Road": "Route", "Wire": "Barbelés", "Exit map": "Sortie de la carte", "Minefield": "Champ de mines",
    "all MP": "tous les PM", "prohibited": "interdit",
    "Entering a higher hex costs {f} of the unit's MP, rounded {r}, or the terrain cost if more":
        "Entrer dans un hex plus élevé coûte {f} des PM de l'unité, arrondi à l'entier {r}, ou le coût du terrain "
        "s'il est plus élevé",
    "up": "supérieur", "down": "inférieur",
    "Along a road or track: no climb, no zone cost (§8.3)":
        "Le long d'une route ou d'une piste : ni montée, ni coût de zone (§8.3)",
    "A unit may always move {n} hex whatever it costs (§8.1).":
        "Une unité peut toujours se déplacer de {n} hex quel qu'en soit le coût (§8.1).",
    "Move-and-fire: {f} of the MP, rounded {r} (§9.52).":
        "Tir en mouvement : {f} des PM, arrondi à l'entier {r} (§9.52).",
    "Any hex, per player": "Tout hex, par joueur",
    # spotting, combat, morale
    "The target must be within visibility and in line of sight (§9.11–9.13).":
        "La cible doit être à portée de visibilité et en ligne de visée (§9.11–9.13).",
    "Spotting number: the distance in hexes divided by {o} in the open, by {c} if the target is in cover (building "
    "hex or higher than the spotter), rounded {r}":
        "Chiffre de repérage : la distance en hex divisée par {o} à découvert, par {c} si la cible est à couvert "
        "(hex de bâtiment ou plus haut que l'unité qui repère), arrondi à l'entier {r}",
    "Roll 1d6, add the modifiers below: the target is spotted if the total is at least the spotting number.":
        "Lancer 1d6 et ajouter les modificateurs ci-dessous : la cible est repérée si le total atteint au moins le "
        "chiffre de repérage.",
    "Same hex: spotted automatically.": "Même hex : repérée automatiquement.",
    "Place a Spotted A, B or C marker when the spotter's C3 is A, B or C (§9.18).":
        "Poser un marqueur Repéré A, B ou C quand le C3 de l'unité qui repère est A, B ou C (§9.18).",
    "not cumulative": "non cumulatif",
    "Modified {dice}: the firer's fire factor minus the target's defense factor, plus the modifiers, plus the dice "
    "(§9.22).":
        "{dice} modifiés : le facteur de tir du tireur moins le facteur de défense de la cible, plus les "
        "modificateurs, plus les dés (§9.22).",
    "Morale test: roll 2d6 and add the modifiers below; the unit or formation passes if the total is at most the "
    "morale on its combat card (§10.1). A unit that fails is suppressed, a formation shaken (§10.12).":
        "Test de moral : lancer 2d6 et ajouter les modificateurs ci-dessous ; l'unité ou la formation le réussit si "
        "le total ne dépasse pas le moral de sa carte de combat (§10.1). Une unité qui échoue est supprimée, une "
        "formation ébranlée (§10.12).",
    "An unmodified {n} is steel: the unit gains a level of experience (§10.31).":
        "Un {n} non modifié est un moral d'acier : l'unité gagne un niveau d'expérience (§10.31).",
    # transport
    "Truck": "Camion", "Motorcycle": "Motocyclette", "Carrier, Jeep, M3, SdKfz 251": "Carrier, Jeep, M3, SdKfz 251",
    "yes": "oui", "no": "non",
    "The carrier starts the Operations Phase in its passengers' hex.":
        "Le transporteur commence la Phase des opérations dans l'hex de ses passagers.",
    "When the carrier is activated, its face-up passengers are loaded under it, flipped (no MP).":
        "Quand le transporteur est activé, ses passagers côté pile sont embarqués sous lui, retournés (sans PM).",
    "The carrier moves with its full MP, passengers aboard; then it is flipped.":
        "Le transporteur se déplace avec tous ses PM, passagers à bord ; puis il est retourné.",
    "Passengers stay aboard until the Morale Phase (step 1): no unloading before.":
        "Les passagers restent à bord jusqu'à la Phase du moral (étape 1) : pas de débarquement avant.",
    "A transporting carrier enters no enemy-occupied hex, neither it nor its passengers fire, and it cannot overrun "
    "(§13.35). Fire at it hits the carrier; passengers share the result: suppressed, they are unloaded and "
    "suppressed; destroyed, they are eliminated (§13.36). Scenario transports belong to no formation, have morale "
    "{m}{d} and never count for victory (§13.31).":
        "Un transporteur chargé n'entre dans aucun hex occupé par l'ennemi, ni lui ni ses passagers ne tirent, et il "
        "ne peut faire d'enfoncement (§13.35). Le tir contre lui touche le transporteur ; les passagers partagent le "
        "résultat : supprimé, ils sont débarqués et supprimés ; détruit, ils sont éliminés (§13.36). Les moyens de "
        "transport du scénario n'appartiennent à aucune formation, ont un moral de {m}{d} et ne comptent jamais pour "
        "la victoire (§13.31).",
    # smoke
    "Who: a unit firing indirectly, a bombardment, a British CS tank (one marker a turn, instead of its attack).":
        "Qui : une unité en tir indirect, un pilonnage, un char CS britannique (un marqueur par tour, au lieu de son "
        "attaque).",
    "Each marker costs one of the side's smoke points (record sheet); none when they are spent.":
        "Chaque marqueur coûte un point de fumigènes du camp (feuille d'enregistrement) ; aucun quand ils sont "
        "épuisés.",
    "Pick a hex instead of a unit: no spotting roll, it must be within the spotter's visibility. A bombardment places "
    "up to {n}{d} markers.":
        "Choisir un hex au lieu d'une unité : pas de lancer de repérage, il doit être dans la visibilité de l'unité "
        "qui repère. Un pilonnage pose jusqu'à {n}{d} marqueurs.",
    "Smoke blocks line of sight through the hex; smoke in the spotter's or target's hex gives {v} to spotting "
    "instead. No effect on movement, stacking or fire.":
        "Les fumigènes bloquent la ligne de visée à travers l'hex ; dans l'hex de l'unité qui repère ou de la cible, "
        "ils donnent {v} au repérage à la place. Aucun effet sur le mouvement, l'empilement ou le tir.",
    "Morale Phase step 5: roll 1d6 for each marker, removed on 1–{n}{d}.":
        "Phase du moral, étape 5 : lancer 1d6 par marqueur, retiré sur 1–{n}{d}.",
    # raids
    "The nine raid cards are one deck, face down on the record sheet (§16.1). Each side writes its plans on its own "
    "plan sheet, in secret, after set-up (§18.4).":
        "Les neuf cartes de raid forment une pioche, face cachée sur la feuille d'enregistrement (§16.1). Chaque camp "
        "note ses plans sur sa feuille de plan, en secret, après la mise en place (§18.4).",
    "In the turn written for it (one a turn), interrupt any card: the top raid card goes face up on the stack.":
        "Au tour noté pour lui (un par tour), interrompre n'importe quelle carte : la carte de raid du dessus va face "
        "visible sur la pile.",
    "One Air strike marker per pass on an enemy unit: no spotting, no line of sight; each marker in or next to the "
    "hex of another.":
        "Un marqueur de bombardement aérien par passage sur une unité ennemie : ni repérage, ni ligne de visée ; "
        "chaque marqueur dans l'hex d'un autre ou à côté.",
    "Roll 1d6 per marker: {n}{d} — the aircraft miss, the marker is removed.":
        "Lancer 1d6 par marqueur : {n}{d} — les avions ratent, le marqueur est retiré.",
    "Each marker attacks its unit alone, as indirect fire: no range modifier, no fire zone, no flash kill.":
        "Chaque marqueur attaque son unité seule, comme un tir indirect : ni modificateur de portée, ni zone de tir, "
        "ni destruction éclair.",
    "Written: the turn and the formation (with an FO) that will spot it; one a formation a turn.":
        "Noter : le tour et la formation (avec un OA) qui le repérera ; un par formation et par tour.",
    "When that formation activates in that turn, draw the top raid card onto the stack; cancelled if the turn ends "
    "first or none of its FOs can spot.":
        "Quand cette formation s'active à ce tour, tirer la carte de raid du dessus sur la pile ; annulé si le tour "
        "finit avant ou si aucun de ses OA ne peut repérer.",
    "{m}{d} Bombardment markers on enemy units its FOs see, each next to another; a spotting roll per unit (an FO "
    "tries up to {n}{e}); each spotted marker attacks its unit as indirect fire and leaves a fire zone.":
        "{m}{d} marqueurs de pilonnage sur des unités ennemies que voient ses OA, chacun à côté d'un autre ; un "
        "lancer de repérage par unité (un OA tente jusqu'à {n}{e}) ; chaque marqueur repéré attaque son unité en tir "
        "indirect et laisse une zone de tir.",
    "An active FO calls it: draw a raid card. “Immediate”: resolve it now, as above.":
        "Un OA actif le demande : tirer une carte de raid. « Immédiat » : le résoudre tout de suite, comme ci-dessus.",
    "Delayed 1 or 2 turns: write it on the plan sheet; when the formation activates that turn, draw a new card and "
    "resolve as preplanned.":
        "Différé de 1 ou 2 tours : le noter sur la feuille de plan ; quand la formation s'active à ce tour, tirer une "
        "nouvelle carte et résoudre comme un pilonnage préprogrammé.",
    # fortifications
    "Written secretly on the plan sheet before any unit is set up; one a hex, never with an entrenchment, bunker or "
    "hidden FO.":
        "Noté en secret sur la feuille de plan avant toute mise en place ; un par hex, jamais avec un retranchement, "
        "un bunker ou un OA caché.",
    "An enemy unit entering the hex: its owner announces it and attacks that unit, before any other fire: AV "
    "{av}{d1} against vehicles, AI {ai}{d2} against others, the differential the only modifier, 3d6.":
        "Une unité ennemie entre dans l'hex : son propriétaire l'annonce et attaque cette unité, avant tout autre "
        "tir : AV {av}{d1} contre les véhicules, AI {ai}{d2} contre les autres, le différentiel seul modificateur, "
        "3d6.",
    "or": "ou",
    "A friendly unit entering: roll 2d6, attacked on {rolls}{d}. A minefield not announced is lost.":
        "Une unité amie y entre : lancer 2d6, attaquée sur {rolls}{d}. Un champ de mines non annoncé est perdu.",
    "Bunker: one infantry or FO unit inside, under the marker; fire at it {v}; it cannot turn.":
        "Bunker : une unité d'infanterie ou un OA dedans, sous le marqueur ; tir contre elle {v} ; elle ne peut "
        "pivoter.",
    "Wire: one a hex, never in buildings; entering it ends the move (see the movement costs).":
        "Barbelés : un par hex, jamais dans les bâtiments ; y entrer termine le mouvement (voir les coûts de "
        "mouvement).",
    "Engineer operation: move into an adjacent hex whatever the wire (a minefield there is revealed, 2d6 as "
    "friendly), or stay to remove the wire and deactivate the minefield.":
        "Opération du génie : entrer dans un hex adjacent malgré les barbelés (un champ de mines y est révélé, 2d6 "
        "comme ami), ou rester pour enlever les barbelés et désactiver le champ de mines.",
    "An active infantry, FO or artillery unit: Entrenching marker; the same operation {n}{d} turns in a row makes it "
    "Entrenched.":
        "Une unité active d'infanterie, OA ou artillerie : marqueur Retranchement en cours ; la même opération {n}{d} "
        "tours de suite la rend Retranchée.",
    "Not for vehicles, not in rocky zone, enemy or minefield hexes; at most {n}{d} a hex; removed with its occupant. "
    "Fire at an entrenched unit: {s} spotting, {f} fire.":
        "Ni pour les véhicules, ni en zone rocheuse, ni dans un hex ennemi ou de champ de mines ; au plus {n}{d} par "
        "hex ; retiré avec son occupant. Tir contre une unité retranchée : {s} au repérage, {f} au tir.",
    "the charts of the pack": "les tables du paquet",
    # the modifier charts (their lines are the modifier table's, rules_tables.MODIFIERS)
    "Fire: D direct (and opportunity, close assault, overrun), I indirect, R raid, Z fire zone.":
        "Tir : D direct (opportunit\u00e9, assaut, enfoncement), I indirect, R raid, Z zone de tir.",
    "Not a die-roll modifier: an indirect-fire unit spotting its own target adds {v} to both its fire factors "
    "(§13.28).":
        "Pas un modificateur : une unité de tir indirect qui repère sa cible ajoute {v} à ses deux facteurs (§13.28).",
    "Adjacent anti-infantry fire in the advanced rules: {v} instead (§12.14).":
        "Tir anti-infanterie adjacent, règles avancées : {v} à la place (§12.14).",
}

# morale modifier id -> the chart's label in French (the table's "fr" quotes the rulebook's sentence); the
# spotting and fire modifiers' French is their row's in rules_tables.MODIFIERS
MORALE_FR: dict[str, str] = {
    "per_loss": "Par unit\u00e9 \u00e9limin\u00e9e de la formation : \u00d7 le modificateur de la carte (cartes "
                "\u00e0 +\u00bd : total arrondi au sup\u00e9rieur)",
    "hit_plus_x": "Touch\u00e9 + X : ajouter X",
    "flank_or_same_hex": "Touch\u00e9 ou Touch\u00e9 + X par l'arc de flanc ou depuis le m\u00eame hex",
    "close_assault_hit": "Touch\u00e9 ou Touch\u00e9 + X lors d'un assaut rapproch\u00e9",
    "minefield": "Test apr\u00e8s une attaque par champ de mines, ou touch\u00e9 dans un hex de champ de mines (m\u00eame "
                 "hex)",
}
