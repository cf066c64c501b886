from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("login/", views.login, name="login"),
    path("logout/", views.logout, name="logout"),
    path("signup/", views.signup, name="signup"),
    path("account/", views.account, name="account"),
    path("join/<slug:token>/", views.join, name="join"),
]
