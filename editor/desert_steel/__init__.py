"""Desert Steel's editor parts: its hand-made forms, its board workbench and counter painters.

The generic editor never imports this package: Desert Steel's ruleset declares these parts
by "module:attr" references (``rules/desert_steel/contributions.py``, ``EDITOR``) and the editor
asks the pack's ruleset for them. Importing the package itself loads no Qt.
"""
