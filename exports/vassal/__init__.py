"""VASSAL modules: a generic writer (``encode``, ``module``, ``raster``) and what a ruleset puts in one
(``desert_steel``). The writer knows VASSAL 3.6's file formats and nothing of any game."""
