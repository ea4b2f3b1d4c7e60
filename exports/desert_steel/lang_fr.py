"""Desert Steel's headings and labels in French (``--lang fr``), in the rulebook's words: the
words its documents add around the pack's texts. They join exports/lang.py's table when this
package loads (exports/desert_steel/__init__.py); the aids' sentences are in lang_aids.py."""
from __future__ import annotations

FR_DS: dict[str, str] = {
    "ALLIED": "ALLI\u00c9S",
    "AXIS": "AXE",
    "Green": "Bleu",
    "Seasoned": "Aguerri",
    "Veteran": "V\u00e9t\u00e9ran",
    "Company": "Compagnie",
    "Squadron": "Escadron",
    "Battery": "Batterie",
    "Headquarters": "QG",
    "Battle group": "Groupement tactique",
    "Platoon": "Peloton",
    # cards
    "EXPERIENCE": "EXP\u00c9RIENCE",
    "MORALE": "MORAL",
    "UNITS": "UNIT\u00c9S",
    "YEAR": "ANN\u00c9E",
    "Dates of use {dates}": "Dates d'emploi {dates}",
    "Command card": "Carte de commandement",
    "Formation card": "Carte de formation",
    "Subordinate formations": "Formations subordonn\u00e9es",
    "contents reconstructed": "contenu reconstitu\u00e9",
    "reconstructed value": "valeur reconstitu\u00e9e",
    "play the scenario's year": "jouer l'ann\u00e9e du sc\u00e9nario",
    "Formation cards": "Cartes de formation",
    "Raid cards": "Cartes de raid",
    "Counters": "Pions",
    "Markers": "Marqueurs",
    "{n} with another back": "{n} avec un autre dos",
    "{n}, one-sided": "{n}, recto seul",
    "counts reconstructed": "nombres reconstitu\u00e9s",
    "Markers with two faces": "Marqueurs \u00e0 deux faces",
    "Play aids": "Aides de jeu",
    "Map sheets": "Cartes",
    "Record sheet": "Feuille d'enregistrement",
    "Plan sheets": "Feuilles de plan",
    "{n} cards": "{n} cartes",
    "{n} counters": "{n} pions",
    # record sheet
    "Turn track": "Piste des tours",
    "game turn marker; the game length marker on the last turn (\u00a72.12)":
        "marqueur du tour de jeu ; le marqueur de dur\u00e9e du jeu sur le dernier tour (\u00a72.12)",
    "END": "FIN",
    "vis {v}": "vis {v}",
    " (continued)": " (suite)",
    "A: Allied, X: Axis arrivals (card numbers, transports); vis: visibility that turn.":
        "A : arriv\u00e9es alli\u00e9es, X : de l'Axe (num\u00e9ros de cartes, transports) ; vis : visibilit\u00e9 "
        "de ce tour.",
    "Battle conditions": "Conditions de la bataille",
    "place the condition markers (\u00a72.12, \u00a718.2)": "placer les marqueurs de conditions (\u00a72.12, \u00a718.2)",
    "Relief (elevation)": "Relief (\u00e9l\u00e9vation)",
    "Zone": "Zone",
    "Urbanization": "Urbanisation",
    "Road network": "R\u00e9seau routier",
    "Visibility": "Visibilit\u00e9",
    "hexes; starts at {v}": "hex ; d\u00e9bute \u00e0 {v}",
    ", changes by turn as on the turn track": ", change selon le tour comme sur la piste des tours",
    "Smoke points": "Points de fumig\u00e8nes",
    "each side's smoke points marker: move it down one box for each smoke marker placed (\u00a717.1)":
        "le marqueur de points de fumig\u00e8nes de chaque camp : une case de moins par marqueur de fumig\u00e8nes "
        "pos\u00e9 (\u00a717.1)",
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
    "{side} fire zones": "Zones de tir : {side}",
    "Hex": "Hex",
    "Firing unit (or raid card)": "Unit\u00e9 qui tire (ou carte de raid)",
    "Its hex": "Son hex",
    "AI": "AI",
    "AV": "AV",
    "Removed": "Retir\u00e9e",
    # plan sheets
    "{side} plan sheet": "Feuille de plan {side}",
    "{side} plan sheet \u2014 SECRET": "Feuille de plan {side} \u2014 SECR\u00c8TE",
    "Keep this sheet out of the {other} player's sight; it stays with the {side} player all game.":
        "Cachez cette feuille au joueur {other} ; elle reste au joueur {side} toute la partie.",
    "MINEFIELDS": "CHAMPS DE MINES",
    "HIDDEN FORWARD OBSERVERS": "OBSERVATEURS AVANC\u00c9S CACH\u00c9S",
    "RAID RECORD": "ENREGISTREMENT DES RAIDS",
    "AIR STRIKES": "BOMBARDEMENTS A\u00c9RIENS",
    "ARTILLERY BOMBARDMENTS": "PILONNAGES D'ARTILLERIE",
    "Turn": "Tour",
    "Raid card": "Carte de raid",
    "Arrival turn": "Tour d'arriv\u00e9e",
    "Spotting formation": "Formation qui rep\u00e8re",
    "Card no.": "N\u00b0 de carte",
    "none in this scenario": "aucun dans ce sc\u00e9nario",
    "Scenario {title} ({year}, {turns} turns)": "Sc\u00e9nario {title} ({year}, {turns} tours)",
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
    "map {ids}": "carte {ids}",
    "maps {ids}": "cartes {ids}",
    "north": "nord",
    # scenario sheet
    "Background": "Historique",
    "The board": "Le terrain",
    "Special rules": "R\u00e8gles sp\u00e9ciales",
    "Victory conditions": "Conditions de victoire",
    "Designers' notes": "Notes des concepteurs",
    "{side} forces": "Forces {side}",
    "Card": "Carte",
    "Formation": "Formation",
    "Set up": "Mise en place",
    "first": "en premier",
    "second": "en second",
    "Enter on turn {turn}": "Entre au tour {turn}",
    "In hand only (no counters)": "En main seulement (sans pions)",
    "Reinforcements, turn {turn}": "Renforts, tour {turn}",
    " (cards only)": " (cartes seulement)",
    "North": "Nord",
    "Leaving the map (\u00a78.4)": "Sortie de la carte (\u00a78.4)",
    # play aids
    "Sequence of play (\u00a74)": "S\u00e9quence de jeu (\u00a74)",
    "The turn": "Le tour",
    "Morale Phase, step by step (\u00a74.3)": "Phase de moral, \u00e9tape par \u00e9tape (\u00a74.3)",
    "Cards: priority and interruption (\u00a76.4\u2013\u00a76.56)":
        "Cartes : priorit\u00e9 et interruption (\u00a76.4\u2013\u00a76.56)",
    "Playing cards": "Jouer les cartes",
    "Priority, the higher wins (\u00a76.43)": "Priorit\u00e9, la plus haute l'emporte (\u00a76.43)",
    "Command cards (\u00a76.52\u2013\u00a76.54)": "Cartes de commandement (\u00a76.52\u2013\u00a76.54)",
    "Operations summary (\u00a72.4, \u00a77)": "R\u00e9sum\u00e9 des op\u00e9rations (\u00a72.4, \u00a77)",
    "Operation": "Op\u00e9ration",
    "Who": "Qui",
    "What": "Quoi",
    "How to read a counter (\u00a72.11)": "Lire un pion (\u00a72.11)",
    "Terrain effects": "Effets du terrain",
    "Elevation level of each map colour, by relief": "Niveau d'\u00e9l\u00e9vation de chaque couleur, selon le relief",
    "Random Battle Conditions Table (\u00a73.11)": "Table al\u00e9atoire des conditions de combat (\u00a73.11)",
    "Movement costs": "Co\u00fbts en points de mouvement",
    "Spotting": "Rep\u00e9rage",
    "Spotting modifiers (added to 1d6)": "Modificateurs de rep\u00e9rage (ajout\u00e9s \u00e0 1d6)",
    "Combat Results Table": "Table des r\u00e9sultats des combats",
    "Vehicle target": "Cible v\u00e9hicule",
    "Non-vehicle target": "Cible non-v\u00e9hicule",
    "Range modifiers (only the most favourable applies, \u00a79.23)":
        "Modificateurs de port\u00e9e (seul le plus favorable s'applique, \u00a79.23)",
    "Fire modifiers (added to 3d6)": "Modificateurs de tir (ajout\u00e9s \u00e0 3d6)",
    "Morale": "Moral",
    "Separation (\u00a711)": "S\u00e9paration (\u00a711)",
    "Modifier": "Modificateur",
    "Morale modifier": "Modificateur de moral",
    "Separated unit": "Unit\u00e9 s\u00e9par\u00e9e",
    "Roll": "Jet",
    "Transport (\u00a713.3)": "Transport (\u00a713.3)",
    "Procedure": "Proc\u00e9dure",
    "Carrier": "Transporteur",
    "Carries": "Capacit\u00e9",
    "Infantry at most": "Infanterie au plus",
    "Tows": "Tracte",
    "Smoke (\u00a717)": "Fumig\u00e8nes (\u00a717)",
    "Raids (\u00a716)": "Raids (\u00a716)",
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
    "GAME": "DUR\u00c9E",
    "LENGTH": "DU JEU",
    "TURN": "TOUR",
    "VISIBILITY": "VISIBILIT\u00c9",
    "URBANIZATION": "URBANISATION",
    "ZONE": "ZONE",
    "ELEVATION": "\u00c9L\u00c9VATION",
    "ROAD": "R\u00c9SEAU",
    "NETWORK": "ROUTIER",
    "NORTH": "NORD",
    "SMOKE": "FUMIG\u00c8NES",
    "POINTS": "POINTS",
    "SUPPRESSED": "SUPPRIM\u00c9",
    "SHAKEN": "\u00c9BRANL\u00c9",
    "SEPARATED": "S\u00c9PAR\u00c9",
    "FIRED": "TIR\u00c9",
    "MOVED": "BOUG\u00c9",
    "SPOTTED": "REP\u00c9R\u00c9",
    "FLASH": "DESTRUCTION",
    "KILL": "\u00c9CLAIR",
    "SEASONED": "AGUERRI",
    "VETERAN": "V\u00c9T\u00c9RAN",
    "ENTRENCHED": "RETRANCH\u00c9",
    "ENTRENCHING": "RETRANCHEMENT",
    "BUNKER": "BUNKER",
    "WIRE": "BARBEL\u00c9S",
    "FIRE": "ZONE",
    "AIR": "BOMBARDEMENT",
    "STRIKE": "A\u00c9RIEN",
    "BOMBARDMENT": "PILONNAGE",
}
