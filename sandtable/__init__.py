"""sandtable: a workbench for Tank Leader hex-and-counter wargames."""
__version__ = "0.1.0"
