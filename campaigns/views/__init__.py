"""The views, by kind: the campaign's pages, its changes, the live layer, the rest of the site.
How a campaign page and the answer to a change are drawn is in `render`."""

from campaigns.views.changes import (
    act,
    delete_campaign,
    redo,
    remove_member,
    rotate_invite,
    set_role,
    undo,
)
from campaigns.views.display import display_stream, display_version, table_display
from campaigns.views.live import stream, version
from campaigns.views.pages import (
    campaign_page,
    export,
    members,
)
from campaigns.views.site import (
    choose_game,
    home,
    import_view,
    manifest,
    new_campaign,
    service_worker,
)

__all__ = [
    "act",
    "campaign_page",
    "choose_game",
    "delete_campaign",
    "display_stream",
    "display_version",
    "export",
    "home",
    "import_view",
    "manifest",
    "members",
    "new_campaign",
    "redo",
    "remove_member",
    "rotate_invite",
    "service_worker",
    "set_role",
    "stream",
    "table_display",
    "undo",
    "version",
]
