"""`{% command_form %}`: the Django form of a command, for the template of the region it sits in.

The form is what the template draws from: a field's label, limits (maxlength, min, max),
help text and errors come from it through `campaigns/field.html`, its hidden fields through
`campaigns/hidden.html`. After a refusal the form of the refused command, in its region, comes
back bound to what was posted, so the typed value and the message stay where the user was.
"""

from __future__ import annotations

import copy
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


# One unbound form per class whose fields are all hidden (None for the others), made once.
UNBOUND: dict[type[forms.Form], forms.Form | None] = {}


def unbound(form_class: type[forms.Form]) -> forms.Form | None:
    """One unbound form of a class whose fields are all hidden (a −1 or +1, a draw, a release),
    to copy for each button: a page draws dozens, and a fresh Django form deep-copies its
    fields. None for a form with a field the user fills in (it is made fresh each time)."""
    if form_class not in UNBOUND:
        form = form_class(auto_id=False)
        hidden = all(field.widget.is_hidden for field in form.fields.values())
        UNBOUND[form_class] = form if hidden else None
    return UNBOUND[form_class]


def fresh_form(form_class: type[forms.Form], initial: dict[str, Any]) -> forms.Form:
    shared = unbound(form_class)
    if shared is None:
        return form_class(initial=initial, auto_id=False)
    form = copy.copy(shared)  # the fields are shared, never changed: they are all hidden
    form.initial = initial
    form._bound_fields_cache = {}
    return form


def action_url(context: Any, campaign: Any, action: str) -> str:
    """The URL a command posts to, reversed once per page drawn."""
    urls = context.render_context.setdefault("command_urls", {})
    if action not in urls:
        urls[action] = reverse("campaigns:act", args=[campaign.pk, action])
    return urls[action]


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
        form = fresh_form(command.form, initial)
    form.region = region
    form.action = action_url(context, campaign, action)
    return form


@register.filter
def field(form: forms.Form, name: str) -> forms.BoundField | None:
    """`form|field:key`: the field of a form whose field names come from the campaign (`xp-3`,
    one per investigator); None when the form has no such field (a form refused before an
    investigator joined on another phone)."""
    return form[name] if name in form.fields else None
