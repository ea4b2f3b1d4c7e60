"""One editor per object kind; ``form_for`` picks it: the pack's ruleset's hand-made form when
it declares one for the kind (its editor contribution's ``forms``), else a JSON tree."""
from __future__ import annotations

from .. import door
from .fields import ObjectForm


def form_for(ctx, kind: str, oid: str) -> ObjectForm:
    from .generic import GenericForm
    return (door.form_class(ctx.ws.catalog.ruleset, kind) or GenericForm)(ctx, kind, oid)
