"""VASSAL modules: a generic writer (``encode``, ``module``, ``raster``) and what a ruleset puts in one
(``exports/desert_steel/vassal.py`` for Desert Steel). The writer knows VASSAL 3.6's file formats and
nothing of any game."""
