"""`{% command_form %}`: the Django form of a command, for the template of the region it sits in.

The form is what the template draws from: a field's label, limits (maxlength, min, max),
help text and errors come from it through `campaigns/field.html`, its hidden fields through
`campaigns/hidden.html`. After a refusal the form of the refused command, in its region, comes
back bound to what was posted, so the typed value and the message stay where the user was.
"""

from __future__ import annotations

from typing import Any

from django import forms, template
from django.urls import reverse

register = template.Library()


def identifies(initial: dict[str, Any], form_class: type[forms.Form], posted) -> bool:
    """Whether a form with these initial values is the one that was posted: its hidden fields
    (the tracker, the entry, the +1 or −1) hold what the refused request sent."""
    for name, value in initial.items():
        field = form_class.base_fields.get(name)
        hidden = field is not None and field.widget.is_hidden
        if hidden and (posted.get(name) or "") != ("" if value is None else str(value)):
            return False
    return True


@register.simple_tag(takes_context=True)
def command_form(context, action: str, region: str = "", **initial: Any) -> forms.Form:
    """`{% command_form "counter.set" region=item.region tracker=item.t.id value=item.t.value
    as form %}`: the form of the game's command `action` for `region`, with `form.action` (the
    URL it posts to) and `form.region`. Keyword arguments are the initial values; hidden fields
    among them also tell this form apart from its siblings in the same region. (The command's
    parameter is `action`, the URL's word, so that a field may be called `name`.) A form whose
    fields are named by the campaign takes its initial values as one mapping: `initial=…`."""
    initial = {**(initial.pop("initial", None) or {}), **initial}
    campaign = context["campaign"]
    command = campaign.game_module.commands[action]
    refusal = context.get("error")
    form = None
    if (
        refusal is not None
        and getattr(refusal, "form", None) is not None
        and refusal.action == action
        and refusal.region == region
        and identifies(initial, command.form, refusal.data)
    ):
        form = refusal.form
    if form is None:
        form = command.form(initial=initial, auto_id=False)
    form.region = region
    form.action = reverse("campaigns:act", args=[campaign.pk, action])
    return form
