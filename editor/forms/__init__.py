"""One editor per object kind; ``form_for`` picks it (a JSON tree for any other kind)."""
from __future__ import annotations

from .fields import ObjectForm


def form_for(ctx, kind: str, oid: str) -> ObjectForm:
    from .generic import GenericForm
    if ctx.ruleset != "desert-steel":  # the hand-made forms know Desert Steel's schemas
        return GenericForm(ctx, kind, oid)
    from sandtable.editor.desert_steel.forms import FORMS
    return FORMS.get(kind, GenericForm)(ctx, kind, oid)
