from django.urls import path

from campaigns import views

app_name = "campaigns"

urlpatterns = [
    path("", views.home, name="home"),
    path("new/", views.choose_game, name="choose-game"),
    path("new/<slug:game_key>/", views.new_campaign, name="new-campaign"),
    path("import/", views.import_view, name="import"),
    path("join/<slug:token>/", views.join, name="join"),
    path("account/", views.account, name="account"),
    path("c/<int:pk>/", views.campaign_page, name="campaign"),
    path("c/<int:pk>/p/<slug:page>/", views.game_page, name="game-page"),
    path("c/<int:pk>/do/<str:action>/", views.act, name="act"),
    path("c/<int:pk>/undo/", views.undo, name="undo"),
    path("c/<int:pk>/redo/", views.redo, name="redo"),
    path("c/<int:pk>/history/", views.history, name="history"),
    path("c/<int:pk>/stream/", views.stream, name="stream"),
    path("c/<int:pk>/version/", views.version, name="version"),
    path("c/<int:pk>/members/", views.members, name="members"),
    path("c/<int:pk>/members/invite/", views.rotate_invite, name="rotate-invite"),
    path("c/<int:pk>/members/remove/", views.remove_member, name="remove-member"),
    path("c/<int:pk>/members/role/", views.set_role, name="set-role"),
    path("c/<int:pk>/settings/", views.campaign_settings, name="settings"),
    path("c/<int:pk>/delete/", views.delete_campaign, name="delete"),
    path("c/<int:pk>/export.json", views.export, name="export"),
]
