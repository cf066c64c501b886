"""`{% command_form %}`: the Django form of a command, for the template of the region it sits in.

The form is what the template draws from: a field's label, limits (maxlength, min, max),
help text and errors come from it through `campaigns/field.html`, its hidden fields through
`{% hidden_inputs %}`. After a refusal the form of the refused command, in its region, comes
back bound to what was posted, so the typed value and the message stay where the user was.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING

from django import forms, template
from django.middleware.csrf import get_token
from django.urls import reverse
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe

if TYPE_CHECKING:
    from campaigns.models import Campaign

register = template.Library()


def identifies(
    initial: dict[str, object], form_class: type[forms.Form], posted: Mapping[str, object]
) -> bool:
    """Whether a form with these initial values is the one that was posted: its hidden fields
    (the tracker, the entry, the +1 or −1) hold what the refused request sent."""
    for name, value in initial.items():
        field = form_class.base_fields.get(name)
        hidden = field is not None and field.widget.is_hidden
        if hidden and (posted.get(name) or "") != ("" if value is None else str(value)):
            return False
    return True


# One unbound form per class whose fields are the same in every form (None for the others).
UNBOUND: dict[type[forms.Form], forms.Form | None] = {}


def own_fields(form_class: type[forms.Form]) -> bool:
    """Whether the class makes its fields per form (an `__init__` of its own: X for the symbols
    in the bag, the investigators of the campaign…)."""
    mro = form_class.__mro__
    return any("__init__" in vars(cls) for cls in mro[: mro.index(forms.BaseForm)])


def unbound(form_class: type[forms.Form]) -> forms.Form | None:
    """One unbound form of a class, to copy for each form a page draws: a page draws dozens,
    and a fresh Django form deep-copies its fields. Drawing an unbound form never changes its
    fields, so the copies share them. None for a form with a field the user fills in whose
    class makes its fields per form (it is made fresh each time)."""
    if form_class not in UNBOUND:
        form = form_class(auto_id=False)
        hidden = all(field.widget.is_hidden for field in form.fields.values())
        UNBOUND[form_class] = form if hidden or not own_fields(form_class) else None
    return UNBOUND[form_class]


def fresh_form(form_class: type[forms.Form], initial: dict[str, object]) -> forms.Form:
    shared = unbound(form_class)
    if shared is None:
        return form_class(initial=initial, auto_id=False)
    # A page draws a hundred forms; building each deep-copies its fields (most of a page's
    # drawing time, bench_change.py). Forms whose fields never differ share one unbound form's
    # fields instead: a shallow copy with its own initial values. Django has no public way to
    # make a form without copying its fields, so the copy also empties the cache of bound fields
    # Django keeps per form (`_bound_fields_cache`, else it would show the shared form's values);
    # tests/test_widgets.py pins that two forms drawn from one share nothing of their values.
    form = copy.copy(shared)  # the fields are shared, never changed while a form is drawn
    form.initial = initial
    form._bound_fields_cache = {}  # type: ignore[attr-defined]  # Django's, not in django-stubs
    return form


def action_url(context: template.Context, campaign: Campaign, action: str) -> str:
    """The URL a command posts to, reversed once per page drawn (kept in its render context)."""
    urls: dict[str, str] | None = context.render_context.get("command_urls")
    if urls is None:
        urls = context.render_context["command_urls"] = {}
    if action not in urls:
        urls[action] = reverse("campaigns:act", args=[campaign.pk, action])
    return urls[action]


@register.simple_tag(takes_context=True)
def command_form(
    context: template.Context, action: str, region: str = "", **initial: object
) -> forms.Form:
    """`{% command_form "counter.set" region=item.region tracker=item.t.id value=item.t.value
    as form %}`: the form of the game's command `action` for `region`, with `form.action` (the
    URL it posts to) and `form.region`. Keyword arguments are the initial values; hidden fields
    among them also tell this form apart from its siblings in the same region. (The command's
    parameter is `action`, the URL's word, so that a field may be called `name`.) A form whose
    fields are named by the campaign takes its initial values as one mapping: `initial=…`."""
    given = initial.pop("initial", None)
    initial = {**(given if isinstance(given, dict) else {}), **initial}
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
    # What the template reads beside the fields (`form.action`, `form.region`): Django's Form
    # has no such attributes, so they are added to this one form's own.
    vars(form).update(region=region, action=action_url(context, campaign, action))
    return form


@register.filter
def field(form: forms.Form, name: str) -> forms.BoundField | None:
    """`form|field:key`: the field of a form whose field names come from the campaign (`xp-3`,
    one per investigator); None when the form has no such field (a form refused before an
    investigator joined on another phone)."""
    return form[name] if name in form.fields else None


def shared_inputs(context) -> tuple[str, str]:
    """What every form of one render shares: the CSRF input, and the version and page inputs.
    Made once per render (its first scope: includes and partials of one page share it); one
    masked CSRF token serves every form of the page, as Django's own tag would give each."""
    cache = context.render_context.dicts[0]
    shared = cache.get(shared_inputs)
    if shared is None:
        # The render's token ({% csrf_token %}'s): a shared live refresh draws it empty.
        token = context.get("csrf_token")
        if token is None:
            request = context.get("request")
            token = get_token(request) if request is not None else ""
        csrf = (
            f'<input type="hidden" name="csrfmiddlewaretoken" value="{conditional_escape(token)}">'
        )
        seen = (
            f'<input type="hidden" name="version" value="{escape(context["campaign"].version)}">'
            f'<input type="hidden" name="page" value="{escape(context.get("page", ""))}">'
        )
        shared = cache[shared_inputs] = (csrf, seen)
    return shared


# The names of each form class's hidden fields (a form's fields never change their widget).
HIDDEN: dict[type[forms.Form], tuple[str, ...]] = {}


def hidden_names(form: forms.Form) -> tuple[str, ...]:
    names = HIDDEN.get(type(form))
    if names is None:
        names = tuple(name for name, field in form.fields.items() if field.widget.is_hidden)
        if not own_fields(type(form)):
            HIDDEN[type(form)] = names
    return names


@register.simple_tag(takes_context=True)
def hidden_inputs(context) -> SafeString:
    """`{% hidden_inputs %}` inside a `<form>` of `form` (from `{% command_form %}`): CSRF, the
    region it redraws (where its message shows), the version it saw (the stale check), the page
    it sits on, and the form's own hidden fields (the tracker, the entry, the +1 or −1). A page
    draws dozens of forms: what every form shares is made once per render."""
    csrf, seen = shared_inputs(context)
    form = context["form"]
    own = []
    for name in hidden_names(form):
        value = form[name].value()
        own.append(
            f'<input type="hidden" name="{escape(form.add_prefix(name))}" '
            f'value="{"" if value is None else conditional_escape(value)}">'
        )
    region = f'<input type="hidden" name="region" value="{escape(form.region)}">'
    return mark_safe(csrf + region + seen + "".join(own))


@register.simple_tag(takes_context=True)
def csrf_input(context) -> SafeString:
    """`{% csrf_input %}`: Django's `{% csrf_token %}` input, the one token of this render (a
    campaign page's forms all share it; masking a fresh one costs each form 32 random draws)."""
    return mark_safe(shared_inputs(context)[0])
