from django.urls import path, register_converter

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

urlpatterns = [
    path("", views.home, name="home"),
    path("new/", views.choose_game, name="choose-game"),
    path("new/<slug:game_key>/", views.new_campaign, name="new-campaign"),
    path("import/", views.import_view, name="import"),
    path("c/<id:pk>/", views.campaign_page, name="campaign"),
    path("c/<id:pk>/p/<slug:page>/", views.campaign_page, {"own": True}, name="game-page"),
    path("c/<id:pk>/do/<str:action>/", views.act, name="act"),
    path("c/<id:pk>/undo/", views.undo, name="undo"),
    path("c/<id:pk>/redo/", views.redo, name="redo"),
    path("c/<id:pk>/history/", views.campaign_page, {"page": "history"}, name="history"),
    path("c/<id:pk>/stream/", views.stream, name="stream"),
    path("c/<id:pk>/version/", views.version, name="version"),
    path("c/<id:pk>/members/", views.members, name="members"),
    path("c/<id:pk>/members/invite/", views.rotate_invite, name="rotate-invite"),
    path("c/<id:pk>/members/remove/", views.remove_member, name="remove-member"),
    path("c/<id:pk>/members/role/", views.set_role, name="set-role"),
    path("c/<id:pk>/settings/", views.campaign_page, {"page": "settings"}, name="settings"),
    path("c/<id:pk>/delete/", views.delete_campaign, name="delete"),
    path("c/<id:pk>/export.json", views.export, name="export"),
    path("c/<id:pk>/display/<slug:token>/", views.table_display, name="display"),
    path("c/<id:pk>/display/<slug:token>/stream/", views.display_stream, name="display-stream"),
    path("c/<id:pk>/display/<slug:token>/version/", views.display_version, name="display-version"),
]
