from django.urls import include, path
from django.views.i18n import set_language

from campaigns import views

urlpatterns = [
    path("", include("accounts.urls")),
    path("", include("campaigns.urls")),
    path("language/", set_language, name="set-language"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service-worker"),
]

handler500 = "companion.errors.server_error"
