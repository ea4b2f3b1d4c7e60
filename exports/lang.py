"""The print kit's own headings and labels in French (``--lang fr``), in the rulebook's words.

The pack's texts (scenario background, rules, victory) carry their own languages; these are
the words the documents add around them: headings, labels, column heads, the words on the
markers. A key is the English text (with ``{name}`` fields when a value goes in); a key not
here prints in English. The French is the rulebook's (its glossary: rules-digest §8).
"""
from __future__ import annotations

FR: dict[str, str] = {
    # every page
    "Print at actual size (100 %), not \u201cfit to page\u201d":
        "Imprimer \u00e0 la taille r\u00e9elle (100 %), pas \u00ab ajuster \u00e0 la page \u00bb",
    "{mm} mm at 100 %": "{mm} mm \u00e0 100 %",
    "page {n}": "page {n}",
    "sheet {n} of {total}, front": "feuille {n} sur {total}, recto",
    "sheet {n} of {total}, back (back of the page before)": "feuille {n} sur {total}, verso (au dos de la page "
                                                            "pr\u00e9c\u00e9dente)",
    "This page is intentionally blank: it keeps the fronts and backs that follow on the two sides of one sheet.":
        "Page laiss\u00e9e blanche volontairement : elle garde les rectos et versos qui suivent sur les deux faces "
        "d'une feuille.",
    # sides, nations, experience, formations
    "Allied": "Alli\u00e9s", "Axis": "Axe", "ALLIED": "ALLI\u00c9S", "AXIS": "AXE",
    "German": "Allemand", "Italian": "Italien", "British": "Britannique", "US": "Am\u00e9ricain",
    "Green": "Bleu", "Seasoned": "Aguerri", "Veteran": "V\u00e9t\u00e9ran",
    "Company": "Compagnie", "Squadron": "Escadron", "Battery": "Batterie", "Headquarters": "QG",
    "Battle group": "Groupement tactique", "Platoon": "Peloton",
    # cards
    "EXPERIENCE": "EXP\u00c9RIENCE", "MORALE": "MORAL", "UNITS": "UNIT\u00c9S", "YEAR": "ANN\u00c9E",
    "Dates of use {dates}": "Dates d'emploi {dates}",
    "Command card": "Carte de commandement", "Formation card": "Carte de formation",
    "Subordinate formations": "Formations subordonn\u00e9es",
    "contents reconstructed": "contenu reconstitu\u00e9", "reconstructed value": "valeur reconstitu\u00e9e",
    "reconstructed": "reconstitu\u00e9", "play the scenario's year": "jouer l'ann\u00e9e du sc\u00e9nario",
    "Formation cards": "Cartes de formation", "Raid cards": "Cartes de raid", "Counters": "Pions",
    "Markers": "Marqueurs", "{n} with another back": "{n} avec un autre dos", "{n}, one-sided": "{n}, recto seul",
    "counts reconstructed": "nombres reconstitu\u00e9s", "Markers with two faces": "Marqueurs \u00e0 deux faces", "Play aids": "Aides de jeu",
    "Map sheets": "Cartes", "Record sheet": "Feuille d'enregistrement", "Plan sheets": "Feuilles de plan",
    "{n} cards": "{n} cartes", "{n} counters": "{n} pions", "Print guide": "Guide d'impression", "Scenario {name}": "Sc\u00e9nario {name}",
    "Scenario {name} \u00b7 paper {paper} \u00b7 counters {size}\u2033 \u00b7 print at 100 % (actual size), never "
    "\u201cfit to page\u201d": "Sc\u00e9nario {name} \u00b7 papier {paper} \u00b7 pions {size}\u2033 \u00b7 "
    "imprimer \u00e0 100 % (taille r\u00e9elle), jamais \u00ab ajuster \u00e0 la page \u00bb",
    # record sheet
    "Turn track": "Piste des tours",
    "game turn marker; the game length marker on the last turn (\u00a72.12)":
        "marqueur du tour de jeu ; le marqueur de dur\u00e9e du jeu sur le dernier tour (\u00a72.12)",
    "END": "FIN", "vis {v}": "vis {v}", " (continued)": " (suite)",
    "A: Allied, X: Axis arrivals (card numbers, transports); vis: visibility that turn.":
        "A : arriv\u00e9es alli\u00e9es, X : de l'Axe (num\u00e9ros de cartes, transports) ; vis : visibilit\u00e9 "
        "de ce tour.",
    "Battle conditions": "Conditions de la bataille",
    "place the condition markers (\u00a72.12, \u00a718.2)": "placer les marqueurs de conditions (\u00a72.12, \u00a718.2)",
    "Relief (elevation)": "Relief (\u00e9l\u00e9vation)", "Zone": "Zone", "Urbanization": "Urbanisation",
    "Road network": "R\u00e9seau routier", "Visibility": "Visibilit\u00e9",
    "hexes; starts at {v}": "hex ; d\u00e9bute \u00e0 {v}",
    ", changes by turn as on the turn track": ", change selon le tour comme sur la piste des tours",
    "Smoke points": "Points de fumig\u00e8nes",
    "each side's smoke points marker: move it down one box for each smoke marker placed (\u00a717.1)":
        "le marqueur de points de fumig\u00e8nes de chaque camp : une case de moins par marqueur de fumig\u00e8nes "
        "pos\u00e9 (\u00a717.1)",
    "none": "aucun",
    "the 9 raid cards, shuffled, face down (\u00a716.1)": "les 9 cartes de raid, m\u00e9lang\u00e9es, face cach\u00e9e "
                                                            "(\u00a716.1)",
    "Raid deck (face down)": "Pioche des raids (face cach\u00e9e)",
    "Used and delayed raid cards": "Cartes de raid jou\u00e9es et diff\u00e9r\u00e9es",
    "Air strikes and bombardments are planned on": "Bombardements a\u00e9riens et pilonnages se notent",
    "each side's own plan sheet, kept secret.": "sur la feuille de plan de chaque camp, en secret.",
    "Record sheet \u2014 {name}": "Feuille d'enregistrement \u2014 {name}",
    "Fire zones (\u00a713.26)": "Zones de tir (\u00a713.26)",
    "write each fire zone when it is placed; a unit entering it is attacked with these factors, before "
    "opportunity fire": "notez chaque zone de tir pos\u00e9e ; une unit\u00e9 qui y entre est attaqu\u00e9e avec ces "
                        "facteurs, avant le tir d'opportunit\u00e9",
    "{side} fire zones": "Zones de tir : {side}", "Hex": "Hex", "Firing unit (or raid card)": "Unit\u00e9 qui tire (ou carte de raid)",
    "Its hex": "Son hex", "AI": "AI", "AV": "AV", "Removed": "Retir\u00e9e",
    # plan sheets
    "{side} plan sheet": "Feuille de plan {side}",
    "{side} plan sheet \u2014 SECRET": "Feuille de plan {side} \u2014 SECR\u00c8TE",
    "Keep this sheet out of the {other} player's sight; it stays with the {side} player all game.":
        "Cachez cette feuille au joueur {other} ; elle reste au joueur {side} toute la partie.",
    "MINEFIELDS": "CHAMPS DE MINES", "HIDDEN FORWARD OBSERVERS": "OBSERVATEURS AVANC\u00c9S CACH\u00c9S",
    "RAID RECORD": "ENREGISTREMENT DES RAIDS", "AIR STRIKES": "BOMBARDEMENTS A\u00c9RIENS",
    "ARTILLERY BOMBARDMENTS": "PILONNAGES D'ARTILLERIE", "Turn": "Tour", "Raid card": "Carte de raid",
    "Arrival turn": "Tour d'arriv\u00e9e", "Spotting formation": "Formation qui rep\u00e8re", "Card no.": "N\u00b0 de carte",
    "none in this scenario": "aucun dans ce sc\u00e9nario",
    "Scenario {title} ({year}, {turns} turns)": "Sc\u00e9nario {title} ({year}, {turns} tours)",
    # print guide
    "How to print this kit": "Comment imprimer ce kit",
    "SINGLE-SIDED; {pages} pages": "RECTO SEUL ; {pages} pages",
    "DOUBLE-SIDED, flip on the {edge}; {pages} pages (fronts odd, backs even)":
        "RECTO VERSO, retournement sur le {edge} ; {pages} pages (rectos impairs, versos pairs)",
    "long edge (\u201cbook\u201d)": "bord long (\u00ab livre \u00bb)", "short edge (\u201ctablet\u201d)": "bord court (\u00ab bloc-notes \u00bb)",
    "Part": "Partie", "Alone in": "Seule dans", "Pages": "Pages", "Sides": "Faces", "Then": "Ensuite",
    "Back pages are shifted {dx}, {dy} mm for your printer (printer profile). To measure the drift, print "
    "'sandtable export calibration' double-sided first.":
        "Les versos sont d\u00e9cal\u00e9s de {dx}, {dy} mm pour votre imprimante (profil d'imprimante). Pour mesurer "
        "la d\u00e9rive, imprimez d'abord 'sandtable export calibration' en recto verso.",
    "Each file asks your PDF viewer for actual size (print scaling: none) and for this duplex setting; if the "
    "print dialog still offers \u201cfit\u201d or \u201cshrink\u201d, choose \u201cactual size\u201d, and check the "
    "duplex edge.":
        "Chaque fichier demande \u00e0 votre lecteur PDF la taille r\u00e9elle (mise \u00e0 l'\u00e9chelle : aucune) et ce "
        "r\u00e9glage recto verso ; si la fen\u00eatre d'impression propose encore \u00ab ajuster \u00bb ou \u00ab r\u00e9duire \u00bb, "
        "choisissez \u00ab taille r\u00e9elle \u00bb et v\u00e9rifiez le bord de retournement.",
    "single": "recto", "double": "recto verso", "\u2190 this file": "\u2190 ce fichier",
    'Both players read it; keep it by the map.':
        'Les deux joueurs le lisent ; gardez-le près de la carte.',
    'Public: the turn, condition, visibility and smoke points markers go in its boxes.':
        'Publique : les marqueurs de tour, de conditions, de visibilité et de points de fumigènes vont dans ses cases.',
    'One page per side with secrets: give each player his own and keep it hidden.':
        "Une page par camp qui a des secrets : donnez à chaque joueur la sienne, et qu'il la cache.",
    'Cut along the cut lines (crop marks in the margin); one back per side.':
        'Découper le long des traits de coupe (repères dans la marge) ; un dos par camp.',
    'Cut as the formation cards; shuffle into the raid deck.':
        'Découper comme les cartes de formation ; mélanger en pioche des raids.',
    'Glue on card if you like, then cut along the cut lines; the gutters between colours are waste.':
        'Coller sur carton si vous le souhaitez, puis découper le long des traits ; les bandes entre couleurs sont des chutes.',
    'Cut as the counters; both faces of these markers read the same: one side is enough.':
        'Découper comme les pions ; ces marqueurs ont deux faces identiques : un seul côté suffit.',
    'Entrenching on one face, entrenched on the other: cut as the counters.':
        "En cours de retranchement d'un côté, retranché de l'autre : découper comme les pions.",
    'One set per player if you can.':
        'Un jeu par joueur si possible.',
    'Trim each tile along its cut line (left and top edges) and lay it over its neighbour, crosses on crosses; the index on each tile says where it goes.':
        "Couper chaque morceau le long de son trait (bords gauche et haut) et le poser sur son voisin, croix sur croix ; l'index de chaque morceau dit où il va.",
    'Cards, counters and markers: the back of each piece is printed behind its front. Print one test sheet first and hold it to the light; if the backs drift, run the calibration sheet.':
        "Cartes, pions et marqueurs : le dos de chaque pièce est imprimé derrière sa face. Imprimez d'abord une feuille d'essai et regardez-la à contre-jour ; si les dos dérivent, passez la feuille d'étalonnage.",
    'The map tiles are on {map} paper, the rest on {paper}: load both, or print the map file (09-map.pdf) on its own.':
        'Les morceaux de carte sont sur papier {map}, le reste sur {paper} : chargez les deux, ou imprimez le fichier de la carte (09-map.pdf) à part.',
    '3/4" counters are wider than the true-scale hex (18.67 mm across the flats): they will overlap the hex sides. 5/8" counters fit.':
        'Les pions de 3/4" sont plus larges que l\'hex à l\'échelle (18,67 mm entre côtés) : ils déborderont sur les côtés d\'hex. Les pions de 5/8" y tiennent.',
    # map
    "Map \u2014 {name} \u2014 tile {n} of {total} (row {row}, column {col}) \u2014 {maps}":
        "Carte \u2014 {name} \u2014 morceau {n} sur {total} (rang\u00e9e {row}, colonne {col}) \u2014 {maps}",
    "Ids: map letter, column, row. Bold digit right of a hex's centre: its elevation level (§3.4) under this scenario's relief. Red lines: {road}; brown dashes: {track} under this road network (§3.5).":
        "Numéros : lettre de la carte, colonne, rangée. Chiffre gras à droite du centre d'un hex : son niveau d'élévation (§3.4) avec le relief du scénario. Lignes rouges : {road} ; tirets bruns : {track} avec ce réseau routier (§3.5).",
    "Ids: column, row. Bold digit right of a hex's centre: its elevation level (§3.4) under this scenario's relief. Red lines: {road}; brown dashes: {track} under this road network (§3.5).":
        "Numéros : colonne, rangée. Chiffre gras à droite du centre d'un hex : son niveau d'élévation (§3.4) avec le relief du scénario. Lignes rouges : {road} ; tirets bruns : {track} avec ce réseau routier (§3.5).",
    'road':
        'route',
    'track':
        'piste',
    'clear':
        'terrain dégagé',
    "First tile: keep its margins.": "Premier morceau : gardez ses marges.",
    "Cut the dashed left edge; lay it over its neighbours, half crosses on whole ones.":
        "Coupez le bord gauche en tirets ; posez-le sur ses voisins, demi-croix sur croix.",
    "Cut the dashed top edge; lay it over its neighbours, half crosses on whole ones.":
        "Coupez le bord du haut en tirets ; posez-le sur ses voisins, demi-croix sur croix.",
    "Cut the dashed left and top edges; lay it over its neighbours, half crosses on whole ones.":
        "Coupez les bords gauche et haut en tirets ; posez-le sur ses voisins, demi-croix sur croix.",
    "{id}. True scale: a hex is 150 m, {mm} mm high. ": "{id}. \u00c9chelle r\u00e9elle : un hex fait 150 m, {mm} mm de haut. ",
    "Ids: map letter, column, row. Bold digit right of the centre: elevation level (\u00a73.4) with this relief. "
    "Red lines: {road}; brown dashes: {track} with this road network (\u00a73.5).":
        "Num\u00e9ros : carte, colonne, rang\u00e9e. Chiffre gras \u00e0 droite du centre : niveau d'\u00e9l\u00e9vation (\u00a73.4) "
        "avec ce relief. Lignes rouges : {road} ; tirets bruns : {track} avec ce r\u00e9seau routier (\u00a73.5).",
    "Ids: column, row. Bold digit right of the centre: elevation level (\u00a73.4) with this relief. "
    "Red lines: {road}; brown dashes: {track} with this road network (\u00a73.5).":
        "Num\u00e9ros : colonne, rang\u00e9e. Chiffre gras \u00e0 droite du centre : niveau d'\u00e9l\u00e9vation (\u00a73.4) "
        "avec ce relief. Lignes rouges : {road} ; tirets bruns : {track} avec ce r\u00e9seau routier (\u00a73.5).",
    "Ids: map letter, column, row. Red lines: {road}; brown dashes: {track} with this road network (\u00a73.5).":
        "Num\u00e9ros : carte, colonne, rang\u00e9e. Lignes rouges : {road} ; tirets bruns : {track} avec ce r\u00e9seau "
        "routier (\u00a73.5).",
    "Ids: column, row. Red lines: {road}; brown dashes: {track} with this road network (\u00a73.5).":
        "Num\u00e9ros : colonne, rang\u00e9e. Lignes rouges : {road} ; tirets bruns : {track} avec ce r\u00e9seau routier "
        "(\u00a73.5).",
    "map {ids}": "carte {ids}", "maps {ids}": "cartes {ids}", "north": "nord",
    # scenario sheet
    "Background": "Historique", "The board": "Le terrain", "Special rules": "R\u00e8gles sp\u00e9ciales",
    "Victory conditions": "Conditions de victoire", "Designers' notes": "Notes des concepteurs",
    "{side} forces": "Forces {side}", "Card": "Carte", "Formation": "Formation", "Set up": "Mise en place",
    "first": "en premier", "second": "en second", "Enter on turn {turn}": "Entre au tour {turn}",
    "In hand only (no counters)": "En main seulement (sans pions)", "Reinforcements, turn {turn}": "Renforts, tour {turn}",
    " (cards only)": " (cartes seulement)", "North": "Nord", "Leaving the map (\u00a78.4)": "Sortie de la carte (\u00a78.4)",
    # play aids
    "Sequence of play (\u00a74)": "S\u00e9quence de jeu (\u00a74)", "The turn": "Le tour",
    "Morale Phase, step by step (\u00a74.3)": "Phase de moral, \u00e9tape par \u00e9tape (\u00a74.3)",
    "Cards: priority and interruption (\u00a76.4\u2013\u00a76.56)":
        "Cartes : priorit\u00e9 et interruption (\u00a76.4\u2013\u00a76.56)",
    "Playing cards": "Jouer les cartes", "Priority, the higher wins (\u00a76.43)": "Priorit\u00e9, la plus haute l'emporte (\u00a76.43)",
    "Command cards (\u00a76.52\u2013\u00a76.54)": "Cartes de commandement (\u00a76.52\u2013\u00a76.54)",
    "Operations summary (\u00a72.4, \u00a77)": "R\u00e9sum\u00e9 des op\u00e9rations (\u00a72.4, \u00a77)",
    "Operation": "Op\u00e9ration", "Who": "Qui", "What": "Quoi",
    "How to read a counter (\u00a72.11)": "Lire un pion (\u00a72.11)",
    "Terrain effects": "Effets du terrain",
    "Elevation level of each map colour, by relief": "Niveau d'\u00e9l\u00e9vation de chaque couleur, selon le relief",
    "Random Battle Conditions Table (\u00a73.11)": "Table al\u00e9atoire des conditions de combat (\u00a73.11)",
    "Movement costs": "Co\u00fbts en points de mouvement", "Spotting": "Rep\u00e9rage",
    "Spotting modifiers (added to 1d6)": "Modificateurs de rep\u00e9rage (ajout\u00e9s \u00e0 1d6)",
    "Combat Results Table": "Table des r\u00e9sultats des combats",
    "Vehicle target": "Cible v\u00e9hicule", "Non-vehicle target": "Cible non-v\u00e9hicule",
    "Range modifiers (only the most favourable applies, \u00a79.23)":
        "Modificateurs de port\u00e9e (seul le plus favorable s'applique, \u00a79.23)",
    "Fire modifiers (added to 3d6)": "Modificateurs de tir (ajout\u00e9s \u00e0 3d6)",
    "Morale": "Moral", "Separation (\u00a711)": "S\u00e9paration (\u00a711)", "Modifier": "Modificateur",
    "Morale modifier": "Modificateur de moral", "Separated unit": "Unit\u00e9 s\u00e9par\u00e9e", "Roll": "Jet",
    "Transport (\u00a713.3)": "Transport (\u00a713.3)", "Procedure": "Proc\u00e9dure", "Carrier": "Transporteur",
    "Carries": "Capacit\u00e9", "Infantry at most": "Infanterie au plus", "Tows": "Tracte",
    "Smoke (\u00a717)": "Fumig\u00e8nes (\u00a717)", "Raids (\u00a716)": "Raids (\u00a716)",
    "Air strike (\u00a716.2)": "Bombardement a\u00e9rien (\u00a716.2)",
    "Preplanned bombardment (\u00a716.31\u2013\u00a716.34)": "Pilonnage pr\u00e9programm\u00e9 (\u00a716.31\u2013\u00a716.34)",
    "On-call bombardment (\u00a716.35\u2013\u00a716.37)": "Pilonnage sur demande (\u00a716.35\u2013\u00a716.37)",
    "Fortifications (\u00a713.4, \u00a715)": "Fortifications (\u00a713.4, \u00a715)",
    "Minefields (\u00a715.1)": "Champs de mines (\u00a715.1)",
    "Bunkers, wire, engineers (\u00a715.2\u2013\u00a715.4)": "Bunkers, barbel\u00e9s, g\u00e9nie (\u00a715.2\u2013\u00a715.4)",
    "Entrenchment (\u00a713.4)": "Retranchement (\u00a713.4)",
    'Brown lines': 'Lignes brunes',
    'Building hexes are': 'Les hex de bâtiment sont',
    'Clear hexes': 'Hex dégagés',
    'Direct': 'Direct',
    'Entrenching': 'Retranchement',
    'Indirect': 'Indirect',
    'Range (hexes)': 'Portée (hex)',
    'Red lines': 'Lignes rouges',
    'Relief (§3.4)': 'Relief (§3.4)',
    'Road network (§3.5)': 'Réseau routier (§3.5)',
    'Stacking (§8.5)': 'Empilement (§8.5)',
    'Terrain (§8)': 'Terrain (§8)',
    'Units': 'Unités',
    'Urbanization (§3.2)': 'Urbanisation (§3.2)',
    'Vehicle MP': 'PM véhicule',
    'Vehicles': 'Véhicules',
    'Zone (§3.3)': 'Zone (§3.3)',
    # markers (the words on the pieces)
    "GAME": "DUR\u00c9E", "LENGTH": "DU JEU", "TURN": "TOUR", "VISIBILITY": "VISIBILIT\u00c9",
    "URBANIZATION": "URBANISATION", "ZONE": "ZONE", "ELEVATION": "\u00c9L\u00c9VATION", "ROAD": "R\u00c9SEAU",
    "NETWORK": "ROUTIER", "NORTH": "NORD", "SMOKE": "FUMIG\u00c8NES", "POINTS": "POINTS",
    "SUPPRESSED": "SUPPRIM\u00c9", "SHAKEN": "\u00c9BRANL\u00c9", "SEPARATED": "S\u00c9PAR\u00c9", "FIRED": "TIR\u00c9",
    "MOVED": "BOUG\u00c9", "SPOTTED": "REP\u00c9R\u00c9", "FLASH": "DESTRUCTION", "KILL": "\u00c9CLAIR",
    "SEASONED": "AGUERRI", "VETERAN": "V\u00c9T\u00c9RAN", "ENTRENCHED": "RETRANCH\u00c9",
    "ENTRENCHING": "RETRANCHEMENT", "BUNKER": "BUNKER", "WIRE": "BARBEL\u00c9S", "FIRE": "ZONE",
    "AIR": "BOMBARDEMENT", "STRIKE": "A\u00c9RIEN", "BOMBARDMENT": "PILONNAGE",
}
# the scenario sheet
FR.update({
    "set up": "mise en place", "enter turn {turn}": "entre au tour {turn}",
    "reinforcements turn {turn}": "renforts au tour {turn}", "zone not drawn: ": "zone non dessin\u00e9e : ",
    "prohibited ({side})": "interdit ({side})", "both": "les deux camps",
    "The board cannot be drawn: its maps do not join (see validate).":
        "Le terrain ne peut \u00eatre dessin\u00e9 : ses cartes ne se joignent pas (voir validate).",
    "command card": "carte de commandement", "no {year} variant": "pas de version {year}",
    ", counts for morale": ", compte pour le moral", "morale {n}": "moral {n}", "unknown card": "carte inconnue",
    "Smoke:": "Fumig\u00e8nes :", "{n} point": "{n} point", "{n} points": "{n} points",
    "{n} air strike": "{n} bombardement a\u00e9rien", "{n} air strikes": "{n} bombardements a\u00e9riens",
    "{n} preplanned bombardments": "{n} pilonnages pr\u00e9programm\u00e9s",
    "{n} on-call bombardments": "{n} pilonnages sur demande", "Raids:": "Raids :",
    "{n} preplanned bombardment": "{n} pilonnage pr\u00e9programm\u00e9",
    "{n} on-call bombardment": "{n} pilonnage sur demande",
    ", arriving turn {turn}": ", arrivant au tour {turn}", "Motorization:": "Motorisation :",
    "Fortifications:": "Fortifications :", "wire": "barbel\u00e9s", "entrenchments": "retranchements",
    "minefields": "champs de mines", "bunkers": "bunkers",
    "Hidden forward observers:": "Observateurs avanc\u00e9s cach\u00e9s :", "allowed": "autoris\u00e9s",
    "not allowed": "interdits", " (counts for morale, \u00a718.5)": " (compte pour le moral, \u00a718.5)",
    "Undermanned:": "Formations en sous-effectifs :", "Turns": "Tours",
    "; {v} from turn {turn}": " ; {v} \u00e0 partir du tour {turn}", "printed \u201c{p}\u201d": "imprim\u00e9 \u00ab {p} \u00bb",
    "variable * (\u00a73.11)": "variable * (\u00a73.11)", "map {m}: {v}": "carte {m} : {v}", "Relief": "Relief",
    "Allied units": "Les unit\u00e9s alli\u00e9es", "Axis units": "Les unit\u00e9s de l'Axe",
    "Units of both sides": "Les unit\u00e9s des deux camps", "north": "nord", "south": "sud", "east": "est",
    "west": "ouest", "up": "en haut", "down": "en bas", "left": "\u00e0 gauche", "right": "\u00e0 droite",
    "the {edge} edge of map {map}": "le bord {edge} de la carte {map}", "the {edge} edge": "le bord {edge}",
    "{who} leaving by {where}: ": "{who} qui sortent par {where} : ", "count as losses": "comptent comme pertes",
    "do not count as losses": "ne comptent pas comme pertes", "Any other exit: ": "Toute autre sortie : ",
    "counts as a loss": "compte comme une perte", "does not count as a loss": "ne compte pas comme une perte",
    "year {year}": "ann\u00e9e {year}", "advanced rules": "r\u00e8gles avanc\u00e9es", "basic rules": "r\u00e8gles de base",
    "{n} turns": "{n} tours",
    "Maps {layout} (rows top to bottom as laid out), north {north}; coloured areas are where each formation sets up "
    "or enters.": "Cartes {layout} (rang\u00e9es de haut en bas, comme pos\u00e9es), nord {north} ; les zones en couleur "
                  "sont celles o\u00f9 chaque formation se met en place ou entre.",
    "Allied forces": "Forces alli\u00e9es", "Axis forces": "Forces de l'Axe", "cards of {year}": "cartes de {year}",
    "Not resolved: ": "Non r\u00e9solu : ",
    "Die-roll modifier": "Modificateur de lancer de d\u00e9s", "Engineers": "G\u00e9nie",
    "Friendly minefields": "Champs de mines amis", "Hidden deployment": "D\u00e9ploiement cach\u00e9",
    "Elevation level": "Niveau d'\u00e9l\u00e9vation", "No stacking": "Pas d'empilement", "Prohibited hexes": "Hex interdits",
    "Self-spotting": "Rep\u00e9rer sa propre cible", "Shaken at the start": "\u00c9branl\u00e9e au d\u00e9part",
    "Special rule": "R\u00e8gle sp\u00e9ciale", "Visibility change": "Changement de visibilit\u00e9",
    "{year} \u00b7 {rules} rules \u00b7 {turns} turns": "{year} \u00b7 {rules} \u00b7 {turns} tours",
    "advanced": "r\u00e8gles avanc\u00e9es", "basic": "r\u00e8gles de base",
})
# the raid cards
FR.update({
    "Immediate": "Imm\u00e9diat", "{n} Turn": "{n} tour", "{n} Turns": "{n} tours", "anti-vehicle": "anti-v\u00e9hicules",
    "anti-infantry": "anti-infanterie", "AIR STRIKE": "BOMBARDEMENT A\u00c9RIEN",
    "ARTILLERY BOMBARDMENT": "PILONNAGE D'ARTILLERIE", "{n} Pass": "{n} passage", "{n} Passes": "{n} passages",
    "On-call delay: {d}": "D\u00e9lai sur demande : {d}",
    "contents reconstructed: not printed in the rulebook": "contenu reconstitu\u00e9 : absent de la r\u00e8gle",
    "reconstructed: not printed in the rulebook": "reconstitu\u00e9 : absent de la r\u00e8gle",
})
# the plan sheets
FR.update({
    "Scenario: ______________________________   Turns: ______":
        "Sc\u00e9nario : ______________________________   Tours : ______",
    "pre-filled from setup {id}": "pr\u00e9rempli d'apr\u00e8s la mise en place {id}",
    "write each minefield hex before any unit is set up (\u00a715.11); cross it out when revealed or deactivated":
        "notez l'hex de chaque champ de mines avant toute mise en place (\u00a715.11) ; barrez-le quand il est "
        "r\u00e9v\u00e9l\u00e9 ou d\u00e9sactiv\u00e9",
    "hex": "hex", "FO": "OA",
    "formation and hex of each FO set up hidden (\u00a712.21)":
        "formation et hex de chaque OA d\u00e9ploy\u00e9 cach\u00e9 (\u00a712.21)",
    "After set-up, write the turn of each air strike: one air strike a turn at most (\u00a716.21). Preplanned "
    "bombardments: arrival turn and the formation whose forward observer spots it, with its card number; one "
    "spotting per formation a turn (\u00a716.31). A delayed on-call bombardment is written here for the turn it "
    "arrives (\u00a716.36).":
        "Apr\u00e8s la mise en place, notez le tour de chaque bombardement a\u00e9rien : un au plus par tour (\u00a716.21). "
        "Pilonnages pr\u00e9programm\u00e9s : tour d'arriv\u00e9e et formation dont l'observateur avanc\u00e9 le rep\u00e8re, avec "
        "son num\u00e9ro de carte ; un rep\u00e9rage par formation et par tour (\u00a716.31). Un pilonnage sur demande "
        "diff\u00e9r\u00e9 se note ici pour le tour o\u00f9 il arrive (\u00a716.36).",
})
# "FIRE ZONE" is one marker: its two lines read "ZONE DE TIR" in French
MARKER_LINES_FR = {("FIRE", "ZONE"): ("ZONE", "DE TIR"), ("GAME", "TURN"): ("TOUR", "DE JEU"),
                   ("GAME", "LENGTH"): ("DUR\u00c9E", "DU JEU"), ("SMOKE", "POINTS"): ("POINTS DE", "FUMIG\u00c8NES"),
                   ("ROAD", "NETWORK"): ("R\u00c9SEAU", "ROUTIER"), ("FLASH", "KILL"): ("DESTRUCTION", "\u00c9CLAIR"),
                   ("AIR", "STRIKE"): ("BOMBARDEMENT", "A\u00c9RIEN"),
                   # the rulebook's names of the two faces (\u00a72.12): "Retranchement en cours", "Retranch\u00e9"
                   ("ENTRENCHING",): ("RETRANCHEMENT", "EN COURS")}


def tr(lang: str, text: str, **fields) -> str:
    """The text in the language (English when there is no French for it), its fields filled in."""
    out = FR.get(text, text) if lang == "fr" else text
    return out.format(**fields) if fields else out


def marker_lines(lang: str, lines: tuple[str, ...]) -> tuple[str, ...]:
    if lang != "fr":
        return lines
    if tuple(lines) in MARKER_LINES_FR:
        return MARKER_LINES_FR[tuple(lines)]
    return tuple(FR.get(x, x) for x in lines)


def extend(lang: str, texts: dict[str, str]) -> None:
    """Add a ruleset's own translations (its documents' sentences) to the shared table."""
    if lang == "fr":
        FR.update(texts)
