"""`{% icon "icons/arkham/tokens.svg#skull" "token-img" %}`: one symbol of an SVG sprite.

A page's icons come from one sprite file, fetched once and cached, instead of one file per icon
(the chaos bag page asked for 26 of them). The symbols keep their own colours; an icon drawn in
`currentColor` follows the text around it, in light and dark alike.
"""

from django import template
from django.conf import settings
from django.templatetags.static import static
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

# The `<use>` of each icon named, worked out once: the sprite's hashed URL never changes while
# the server runs (outside DEBUG), and a chaos bag answer draws some 60 icons.
_USES: dict[str, str] = {}


def use(name: str) -> str:
    found = _USES.get(name)
    if found is None:
        sprite, _, symbol = name.partition("#")
        found = f'<use href="{escape(static(sprite))}#{escape(symbol)}"></use>'
        if not settings.DEBUG:
            _USES[name] = found
    return found


@register.simple_tag
def icon(name: str, css_class: str = "icon", label: str = "", note: str = "") -> SafeString:
    """An empty label hides the icon from screen readers (the text next to it names it); a
    label makes it an image of that name. A note shows on hover, after the label."""
    if not label:
        return mark_safe(f'<svg class="{escape(css_class)}" aria-hidden="true">{use(name)}</svg>')
    label = conditional_escape(label)
    tip = f"<title>{label}: {conditional_escape(note)}</title>" if note else ""
    return mark_safe(
        f'<svg class="{escape(css_class)}" role="img" aria-label="{label}">{tip}{use(name)}</svg>'
    )
