"""The print kit's own headings and labels in French (``--lang fr``), in the rulebook's words.

The pack's texts (scenario background, rules, victory) carry their own languages; these are
the words the documents add around them: headings, labels, column heads, the words on the
markers. A key is the English text (with ``{name}`` fields when a value goes in); a key not
here prints in English. The French is the rulebook's (its glossary: rules-digest §8). This
table holds the words of the generic toolkits (pages, print guide, calibration); a ruleset's
documents add their own with ``extend`` (exports/desert_steel/lang_fr.py).
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
    "Allied": "Alli\u00e9s",
    "Axis": "Axe",
    "German": "Allemand",
    "Italian": "Italien",
    "British": "Britannique",
    "US": "Am\u00e9ricain",
    "reconstructed": "reconstitu\u00e9",
    "Print guide": "Guide d'impression",
    "Scenario {name}": "Sc\u00e9nario {name}",
    "Scenario {name} \u00b7 paper {paper} \u00b7 counters {size}\u2033 \u00b7 print at 100 % (actual size), never "
    "\u201cfit to page\u201d": "Sc\u00e9nario {name} \u00b7 papier {paper} \u00b7 pions {size}\u2033 \u00b7 "
    "imprimer \u00e0 100 % (taille r\u00e9elle), jamais \u00ab ajuster \u00e0 la page \u00bb",
    "none": "aucun",
    # print guide
    "How to print this kit": "Comment imprimer ce kit",
    "SINGLE-SIDED; {pages} pages": "RECTO SEUL ; {pages} pages",
    "DOUBLE-SIDED, flip on the {edge}; {pages} pages (fronts odd, backs even)":
        "RECTO VERSO, retournement sur le {edge} ; {pages} pages (rectos impairs, versos pairs)",
    "long edge (\u201cbook\u201d)": "bord long (\u00ab livre \u00bb)",
    "short edge (\u201ctablet\u201d)": "bord court (\u00ab bloc-notes \u00bb)",
    "Part": "Partie",
    "Alone in": "Seule dans",
    "Pages": "Pages",
    "Sides": "Faces",
    "Then": "Ensuite",
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
    "single": "recto",
    "double": "recto verso",
    "\u2190 this file": "\u2190 ce fichier",
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
