"""`{% icon "icons/arkham/tokens.svg#skull" "token-img" %}`: one symbol of an SVG sprite.

A page's icons come from one sprite file, fetched once and cached, instead of one file per icon
(the chaos bag page asked for 26 of them). The symbols keep their own colours; an icon drawn in
`currentColor` follows the text around it, in light and dark alike.
"""

from django import template
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag
def icon(name: str, css_class: str = "icon", label: str = "", note: str = "") -> SafeString:
    """An empty label hides the icon from screen readers (the text next to it names it); a
    label makes it an image of that name. A note shows on hover, after the label."""
    sprite, _, symbol = name.partition("#")
    href = f"{static(sprite)}#{symbol}"
    if not label:
        return format_html(
            '<svg class="{}" aria-hidden="true"><use href="{}"></use></svg>', css_class, href
        )
    tip = format_html("<title>{}: {}</title>", label, note) if note else ""
    return format_html(
        '<svg class="{}" role="img" aria-label="{}">{}<use href="{}"></use></svg>',
        css_class,
        label,
        tip,
        href,
    )
