"""`{% region id %}…{% endregion %}`: a live region of a campaign page, drawable on its own.

A page renders whole as usual. The answer to a change renders the same page template in
regions mode: only the regions it asks for (the form's own, the undo bar, those the command
names) come out, each once; a region not asked for is skipped without being drawn, so a +1 costs
the counter's HTML, not the page's. The element inside the tag carries the same id and
`data-live`. A region that holds other regions says so: `{% region "trackers" nested %}`
(regions written directly inside are found without it; those in an include are not).
"""

from __future__ import annotations

from django import template
from django.template.base import FilterExpression, Parser, Token

register = template.Library()

# The context key that switches a render to regions mode (a Regions; see campaigns.views.render).
COLLECT = "_live_regions"


class Regions:
    """Which regions a render should bring out, and what it found."""

    def __init__(self, wanted: set[str]):
        self.wanted = wanted
        self.found: dict[str, str] = {}  # the outermost regions drawn, in page order
        self.seen: set[str] = set()  # every wanted region drawn, nested ones included

    @property
    def complete(self) -> bool:
        return self.seen >= self.wanted


class Inside:
    """Inside a region being drawn: nested regions draw inline and are only noted as seen."""

    def __init__(self, regions: Regions):
        self.regions = regions


def literal(region: FilterExpression) -> str | None:
    """A region's id when the template writes it as a constant ("bag-elder"), else None."""
    return region.var if isinstance(region.var, str) and not region.filters else None


class RegionNode(template.Node):
    def __init__(self, region: FilterExpression, nodelist: template.NodeList, nested: bool):
        self.region = region
        self.nodelist = nodelist
        inner = nodelist.get_nodes_by_type(RegionNode)
        self.nested = nested or bool(inner)
        # The ids of the regions written inside, when all are constants and none hides in an
        # include (`nested` said by hand): a region not asked for, holding none that is, is
        # skipped without drawing it.
        ids = [literal(node.region) for node in inner if isinstance(node, RegionNode)]
        constant = {i for i in ids if i is not None}
        self.inner: set[str] | None = None if nested or len(constant) < len(set(ids)) else constant

    def render(self, context: template.Context) -> str:
        region = str(self.region.resolve(context))
        refusal = context.get("error")
        if refusal is not None and getattr(refusal, "region", None) == region:
            refusal.shown = True  # its region shows it (see the undo bar)
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
        elif (
            self.nested
            and not regions.complete
            and (self.inner is None or self.inner & regions.wanted)
        ):
            self.nodelist.render(context)  # only to find the wanted regions inside
        return ""


@register.tag
def region(parser: Parser, token: Token) -> RegionNode:
    """`{% region "bag-drawn" %}<div id="bag-drawn" data-live>…</div>{% endregion %}`"""
    bits = token.split_contents()
    if len(bits) not in (2, 3) or (len(bits) == 3 and bits[2] != "nested"):
        raise template.TemplateSyntaxError('{% region %} takes the region\'s id, then "nested".')
    nodelist = parser.parse(("endregion",))
    parser.delete_first_token()
    return RegionNode(parser.compile_filter(bits[1]), nodelist, nested=len(bits) == 3)
