"""`{% region id %}…{% endregion %}`: a live region of a campaign page, drawable on its own.

A page renders whole as usual. The answer to a change renders the same page template in
"regions" mode: only the regions it asks for (the form's own, the undo bar, and those the
command names) come out, each once, and everything else is skipped, so a +1 costs the counter's
HTML, not the page's. The element inside the tag carries the same id and `data-live`.
"""

from __future__ import annotations

from django import template
from django.template.defaulttags import PartialNode
from django.template.loader_tags import IncludeNode

register = template.Library()

# The context key that switches a render to regions mode (a Regions, see campaigns.views).
COLLECT = "_live_regions"


class Regions:
    """Which regions a render should bring out, and what it found."""

    def __init__(self, wanted: set[str]):
        self.wanted = wanted
        self.found: dict[str, str] = {}  # top-level regions drawn, in page order
        self.seen: set[str] = set()  # every wanted region drawn, nested ones included

    @property
    def complete(self) -> bool:
        return self.seen >= self.wanted


class RegionNode(template.Node):
    def __init__(self, region, nodelist):
        self.region = region
        self.nodelist = nodelist
        # Whether a wanted region may sit inside this one (directly, or in an included file).
        self.may_nest = bool(
            nodelist.get_nodes_by_type(RegionNode)
            or nodelist.get_nodes_by_type(IncludeNode)
            or nodelist.get_nodes_by_type(PartialNode)
        )

    def render(self, context):
        region = str(self.region.resolve(context))
        refusal = context.get("error")
        if refusal is not None and getattr(refusal, "region", None) == region:
            refusal.shown = True
        regions = context.get(COLLECT)
        if regions is None:
            return self.nodelist.render(context)
        if isinstance(regions, Inside):
            regions.regions.seen.add(region)
            return self.nodelist.render(context)
        if region in regions.wanted:
            regions.seen.add(region)
            with context.push({COLLECT: Inside(regions)}):
                regions.found[region] = self.nodelist.render(context)
        elif self.may_nest and not regions.complete:
            self.nodelist.render(context)
        return ""


class Inside:
    """Inside a region being drawn: nested regions draw inline and are only noted as seen."""

    def __init__(self, regions: Regions):
        self.regions = regions


@register.tag
def region(parser, token):
    """`{% region "bag-drawn" %}<div id="bag-drawn" data-live>…</div>{% endregion %}`"""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("{% region %} takes the region's id.")
    nodelist = parser.parse(("endregion",))
    parser.delete_first_token()
    return RegionNode(parser.compile_filter(bits[1]), nodelist)
