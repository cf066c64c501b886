from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.i18n import set_language

from campaigns import views
from campaigns.ratelimit import rate_limited

urlpatterns = [
    path("", include("campaigns.urls")),
    path("login/", rate_limited("login")(auth_views.LoginView.as_view()), name="login"),
    path(
        "logout/",
        views.forgotten_on_the_phone(auth_views.LogoutView.as_view()),
        name="logout",
    ),
    path("signup/", views.signup, name="signup"),
    path("language/", set_language, name="set-language"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service-worker"),
]

handler500 = "companion.errors.server_error"
