from django.urls import URLPattern, URLResolver, include, path, register_converter

from campaigns import views


class RowId:
    """A row's id in a URL: at most 18 digits, so it always fits the database's 64-bit integer
    (a longer number is a 404, not an overflow)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(RowId, "id")

app_name = "campaigns"

# Starting a campaign: choose the game, then name the campaign.
new_patterns: list[URLPattern | URLResolver] = [
    path("", views.choose_game, name="choose-game"),
    path("<slug:game_key>/", views.new_campaign, name="new-campaign"),
]

# A campaign's members, below its own address.
member_patterns: list[URLPattern | URLResolver] = [
    path("", views.members, name="members"),
    path("invite/", views.rotate_invite, name="rotate-invite"),
    path("remove/", views.remove_member, name="remove-member"),
    path("role/", views.set_role, name="set-role"),
]

# The table display, below a campaign's address and its display token.
display_patterns: list[URLPattern | URLResolver] = [
    path("", views.table_display, name="display"),
    path("stream/", views.display_stream, name="display-stream"),
    path("version/", views.display_version, name="display-version"),
]

# One campaign, below c/<id>/.
campaign_patterns: list[URLPattern | URLResolver] = [
    path("", views.campaign_page, name="campaign"),
    path("p/<slug:page>/", views.campaign_page, {"own": True}, name="game-page"),
    path("do/<str:action>/", views.act, name="act"),
    path("undo/", views.undo, name="undo"),
    path("redo/", views.redo, name="redo"),
    path("history/", views.campaign_page, {"page": "history"}, name="history"),
    path("stream/", views.stream, name="stream"),
    path("version/", views.version, name="version"),
    path("members/", include(member_patterns)),
    path("settings/", views.campaign_page, {"page": "settings"}, name="settings"),
    path("delete/", views.delete_campaign, name="delete"),
    path("export.json", views.export, name="export"),
    path("display/<slug:token>/", include(display_patterns)),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("new/", include(new_patterns)),
    path("import/", views.import_view, name="import"),
    path("c/<id:pk>/", include(campaign_patterns)),
]
